/*
 * What the objects of every class share (see object.h).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php/object.h"

zend_object *redislock_object_create(zend_class_entry *ce, size_t size, const zend_object_handlers *h)
{
    char *o = zend_object_alloc(size, ce);
    zend_object *obj = (zend_object *) (o + h->offset);

    zend_object_std_init(obj, ce);
    object_properties_init(obj, ce);
    obj->handlers = h;
    return obj;
}

void redislock_object_handlers(zend_object_handlers *h, size_t offset, zend_object_free_obj_t free_obj)
{
    memcpy(h, &std_object_handlers, sizeof(zend_object_handlers));
    h->offset = (int) offset;
    h->free_obj = free_obj;
    h->clone_obj = NULL;
}

void redislock_object_not_initialized(zend_object *obj)
{
    zend_throw_error(NULL, "%s object is not initialized", ZSTR_VAL(obj->ce->name));
}
