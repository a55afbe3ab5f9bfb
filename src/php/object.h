/*
 * What the objects of every class share: a struct whose last member is its
 * zend_object std, created with the class's handlers, and a method's $this
 * refused while its constructor has not completed.
 */
#ifndef REDISLOCK_OBJECT_H
#define REDISLOCK_OBJECT_H

#include "php.h"

/* The struct of type (ending with zend_object std) that obj is part of. */
#define REDISLOCK_OBJECT(type, obj) ((type *) ((char *) (obj) - XtOffsetOf(type, std)))

/* In a method: o is $this's struct of type, or an Error is thrown (and the
 * method returns) when the member flag says its constructor did not
 * complete. */
#define REDISLOCK_OBJECT_FETCH(o, type, flag) do { \
        (o) = REDISLOCK_OBJECT(type, Z_OBJ_P(ZEND_THIS)); \
        if (!(o)->flag) { \
            redislock_object_not_initialized(Z_OBJ_P(ZEND_THIS)); \
            RETURN_THROWS(); \
        } \
    } while (0)

/* A new object of class ce: size bytes (the whole struct, zeroed past std's
 * properties), with handlers h (whose offset is std's). */
zend_object *redislock_object_create(zend_class_entry *ce, size_t size, const zend_object_handlers *h);

/* Sets h up for structs whose std is at offset: the standard handlers, free
 * as given, no clone. */
void redislock_object_handlers(zend_object_handlers *h, size_t offset, zend_object_free_obj_t free_obj);

/* Throws the Error for a method called on obj before its constructor
 * completed ("<class> object is not initialized"). */
void redislock_object_not_initialized(zend_object *obj);

#endif /* REDISLOCK_OBJECT_H */
