/*
 * What the PHP classes of the primitives beside the lock
 * (RedisLock\RateLimiter, RedisLock\Atomic) share: objects that are a
 * struct starting with its redislock_prim (engine/prim.h) and ending with
 * its zend_object std; the constructor's checks of name and options.
 */
#ifndef REDISLOCK_PRIMITIVE_H
#define REDISLOCK_PRIMITIVE_H

#include "php.h"
#include "engine/prim.h"
#include "php/object.h"

#include <string.h>

/* In a method: o is $this's struct of type, or an Error is thrown when its
 * constructor did not complete. */
#define REDISLOCK_PRIMITIVE_FETCH(o, type) REDISLOCK_OBJECT_FETCH(o, type, prim.initialized)

/* Sets h up for objects whose std is at offset: the standard handlers, a
 * free that ends the redislock_prim, no clone. */
void redislock_primitive_handlers(zend_object_handlers *h, size_t offset);

/* Sets up p, not set up before, for name (argument 1 of the PHP call) with
 * options (argument arg_num): RedisLock's connection options through
 * redislock_options_lock(), except own (the caller's own option, or NULL),
 * which the caller reads, and the lock-only options, which are refused. A
 * list of several servers is refused too, saying why (cls and why:
 * "RedisLock\Atomic", "a value ..."). The key is prefix + name + suffix.
 * Returns REDISLOCK_ERR with an Error, ValueError or TypeError thrown on bad
 * input, leaving nothing to free. */
int redislock_primitive_init(redislock_prim *p, const char *cls, const char *why, zend_string *name,
                             const char *suffix, HashTable *options, uint32_t arg_num, const char *own);

/* redislock_primitive_init() refusing the options named in refused (a
 * NULL-terminated list) instead of all the lock-only ones. */
int redislock_primitive_init_refusing(redislock_prim *p, const char *cls, const char *why, zend_string *name,
                                      const char *suffix, HashTable *options, uint32_t arg_num, const char *own,
                                      const char *const *refused);

/* Whether s is the C string c (zend_string_equals_cstr() is PHP 8.2's). */
static inline bool redislock_primitive_str_is(const zend_string *s, const char *c)
{
    size_t len = strlen(c);

    return ZSTR_LEN(s) == len && memcmp(ZSTR_VAL(s), c, len) == 0;
}

#endif /* REDISLOCK_PRIMITIVE_H */
