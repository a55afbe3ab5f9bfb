/*
 * What the PHP classes of the primitives beside the lock share (see
 * primitive.h).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_redislock.h"
#include "php/args.h"
#include "php/options.h"
#include "php/primitive.h"

/* RedisLock's options that only a lock has a use for. */
static const char *const lock_only[] = { "ttl", "auto_release", "fencing", "fair", "quorum_timeout", "sync_replicas",
                                         "keepalive", "max_hold", NULL };

/* Ends the redislock_prim that starts the object's struct. */
static void primitive_free(zend_object *obj)
{
    redislock_prim *p = (redislock_prim *) ((char *) obj - obj->handlers->offset);

    if (p->initialized) {
        redislock_prim_dtor(p);
    }
    zend_object_std_dtor(obj);
}

void redislock_primitive_handlers(zend_object_handlers *h, size_t offset)
{
    redislock_object_handlers(h, offset, primitive_free);
}

/* Checks options for lock-only names; copies them without own into *rest
 * when own is among them (*rest stays NULL otherwise). */
static int split_options(const char *cls, HashTable *options, uint32_t arg_num, const char *own,
                         const char *const *refused, HashTable **rest)
{
    zend_string *key;

    *rest = NULL;
    ZEND_HASH_FOREACH_STR_KEY(options, key) {
        if (!key) {
            continue; /* redislock_options_lock() says what is wrong */
        }
        for (const char *const *n = refused; *n; n++) {
            if (redislock_primitive_str_is(key, *n)) {
                zend_argument_value_error(arg_num, "contains the option \"%s\", which is RedisLock's and means "
                                          "nothing to %s", *n, cls);
                return REDISLOCK_ERR;
            }
        }
    } ZEND_HASH_FOREACH_END();
    if (own && zend_hash_str_exists(options, own, strlen(own))) {
        *rest = zend_array_dup(options);
        zend_hash_str_del(*rest, own, strlen(own));
    }
    return REDISLOCK_OK;
}

/* Whether the settings name a single server; a ValueError saying why cls
 * needs one (why) is thrown when not. */
static bool single_server(const redislock_settings *s, const char *cls, const char *why, HashTable *options,
                          uint32_t arg_num)
{
    if (s->servers->count <= 1) {
        return true;
    }
    if (options && zend_hash_str_exists(options, "servers", sizeof("servers") - 1)) {
        zend_argument_value_error(arg_num, "option \"servers\" lists %u servers, but %s needs a single "
                                  "server: %s", s->servers->count, cls, why);
    } else {
        zend_value_error("redislock.servers lists %u servers, but %s needs a single server: %s", s->servers->count,
                         cls, why);
    }
    return false;
}

int redislock_primitive_init(redislock_prim *p, const char *cls, const char *why, zend_string *name,
                             const char *suffix, HashTable *options, uint32_t arg_num, const char *own)
{
    return redislock_primitive_init_refusing(p, cls, why, name, suffix, options, arg_num, own, lock_only);
}

int redislock_primitive_init_refusing(redislock_prim *p, const char *cls, const char *why, zend_string *name,
                                      const char *suffix, HashTable *options, uint32_t arg_num, const char *own,
                                      const char *const *refused)
{
    HashTable *rest = NULL;
    zend_string *prefix;
    int rc;

    if (p->initialized) {
        zend_throw_error(NULL, "%s object is already constructed", cls);
        return REDISLOCK_ERR;
    }
    if (!redislock_args_name(name)) {
        return REDISLOCK_ERR;
    }
    if (options && split_options(cls, options, arg_num, own, refused, &rest) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    rc = redislock_options_lock(&p->settings, rest ? rest : options, arg_num, &prefix);
    if (rest) {
        zend_array_destroy(rest);
    }
    if (rc != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (!redislock_args_name_fits(name, prefix) || !single_server(&p->settings, cls, why, options, arg_num)) {
        redislock_settings_dtor(&p->settings);
        zend_string_release(prefix);
        return REDISLOCK_ERR;
    }
    redislock_prim_init(p, prefix, name, suffix);
    zend_string_release(prefix);
    return REDISLOCK_OK;
}
