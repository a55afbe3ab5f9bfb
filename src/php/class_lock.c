/*
 * The RedisLock class: its objects, methods, and the release of the locks an
 * object or a request leaves held (through the registry of holds, holds.c).
 * The protocol behind each method lives in engine/lock.c; the exceptions and
 * their kinds in exceptions.c.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "zend_attributes.h"
#include "zend_interfaces.h"

#include "php_redislock.h"
#include "config/config.h"
#include "engine/lock.h"
#include "php/args.h"
#include "php/options.h"
#include "engine/hold.h"
#include "engine/acquire.h"
#include "engine/shared.h"
#include "php/class_lock.h"
#include "php/exceptions.h"
#include "php/holds.h"
#include "php/lock_methods.h"
#include "php/object.h"
#include "php/stats.h"
#include "php/redislock_arginfo.h"

static zend_class_entry *redislock_ce;
static zend_object_handlers redislock_handlers;

typedef struct redislock_object {
    redislock_lock lock;
    redislock_lock_methods_part part; /* initialized, its hold, its error (lock_methods.h) */
    zend_object std;
} redislock_object;

#define Z_REDISLOCK_P(zv) REDISLOCK_OBJECT(redislock_object, Z_OBJ_P(zv))
#define REDISLOCK_FETCH(o) REDISLOCK_OBJECT_FETCH(o, redislock_object, part.initialized)
#define HOLD_OBJECT(h) ((redislock_object *) ((char *) (h) - XtOffsetOf(redislock_object, part.hold)))

/* {{{ The hold: released when the object or the request ends */

/* Whether a lock whose object or request is ending is to be released:
 * auto_release is on, or run() was interrupted, or only leftovers of a lost
 * or unfinished hold remain. */
static bool auto_release_due(redislock_object *o)
{
    redislock_lock *l = &o->lock;

    return o->part.initialized && redislock_lock_owned(l)
           && (!l->held || l->settings.auto_release || o->part.hold.in_run);
}

/* Releases a lock whose object is ending, when it should be. A release of
 * unknown outcome leaves the token as a leftover, removed later. Failures
 * are counted, never thrown. */
static void auto_release(redislock_holds_entry *h)
{
    redislock_object *o = HOLD_OBJECT(h);
    redislock_lock *l = &o->lock;
    bool released;

    if (!auto_release_due(o)) {
        return;
    }
    if (redislock_hold_release(l, &released) != REDISLOCK_OK) {
        REDISLOCK_G(stats).errors++;
        redislock_hold_abandon(l, false);
    } else if (released) {
        REDISLOCK_G(stats).auto_released++;
    }
}

/* At request end: a lock still due a release gives up its token as a
 * leftover, released with the others in one go (engine/leftovers.h). */
static void request_end(redislock_holds_entry *h)
{
    redislock_object *o = HOLD_OBJECT(h);

    /* A hold kept past its request (auto_release off) is renewed no more. */
    redislock_hold_keepalive_stop(&o->lock);
    if (auto_release_due(o)) {
        redislock_hold_abandon(&o->lock, true);
    }
}

/* run()'s release, after its callback: a release of unknown outcome leaves
 * the token as a leftover, removed later (see engine/leftovers.h). */
static const redislock_error *run_release(redislock_holds_entry *h)
{
    redislock_object *o = HOLD_OBJECT(h);
    bool released;

    if (redislock_hold_release(&o->lock, &released) == REDISLOCK_OK) {
        return NULL;
    }
    redislock_hold_abandon(&o->lock, false);
    return &o->lock.err;
}

/* end, request_end, request_done, release (see holds.h) */
static const redislock_holds_ops lock_holds = { auto_release, request_end, NULL, run_release };

/* }}} */

/* {{{ The methods of RedisLock\Lock (lock_methods.c) */

/* extend(): renews the lease to ttl ms, or to the lock's ttl when 0. */
static int lock_extend(redislock_lock *l, zend_long ttl, bool *extended)
{
    return redislock_hold_extend(l, ttl > 0 ? ttl : l->settings.ttl, extended);
}

/* One call of RedisLock\Lock on the lock of obj (engine/lock.h). */
REDISLOCK_LOCK_METHODS_CALL(lock_call, redislock_object, redislock_acquire_lock, redislock_hold_release,
                            redislock_hold_check, lock_extend)

/* The hold of obj: its token, and its fence when the lock was made with
 * fencing and the servers gave one. */
static bool lock_held(zend_object *obj, redislock_lock_methods_held *held)
{
    redislock_lock *l = &REDISLOCK_OBJECT(redislock_object, obj)->lock;

    redislock_hold_keepalive_sync(l);
    if (!redislock_lock_holding(l)) {
        return false;
    }
    held->token = l->token;
    held->token_len = REDISLOCK_TOKEN_LEN;
    /* A share draws no fencing number. */
    held->fence = l->settings.fencing && l->fence > 0 && !l->shared ? l->fence : -1;
    return true;
}

/* The lease left by the local monotonic clock (engine/lock.h). */
static zend_long lock_remaining(zend_object *obj)
{
    redislock_lock *l = &REDISLOCK_OBJECT(redislock_object, obj)->lock;

    redislock_hold_keepalive_sync(l);
    return redislock_lock_remaining(l);
}

static const redislock_lock_methods_ops lock_methods = {
    .part_offset = XtOffsetOf(redislock_object, std) - XtOffsetOf(redislock_object, part),
    .count_acquire = false, /* engine/lock.c counts */
    .what = "the lock",
    .call = lock_call,
    .held = lock_held,
    .remaining = lock_remaining,
};

REDISLOCK_LOCK_METHODS(RedisLock, lock_methods)

/* }}} */

/* {{{ Object handlers */

static zend_object *redislock_create(zend_class_entry *ce)
{
    zend_object *obj = redislock_object_create(ce, sizeof(redislock_object), &redislock_handlers);
    redislock_object *o = REDISLOCK_OBJECT(redislock_object, obj);

    o->part.err = &o->lock.err;
    return obj;
}

static void redislock_free(zend_object *obj)
{
    redislock_object *o = REDISLOCK_OBJECT(redislock_object, obj);

    redislock_holds_end(&o->part.hold);
    if (o->part.initialized) {
        redislock_hold_keepalive_stop(&o->lock);
        redislock_settings_dtor(&o->lock.settings);
        redislock_lock_dtor(&o->lock);
    }
    zend_object_std_dtor(obj);
}

/* }}} */

/* {{{ RedisLock methods */

/* Sets up o for the lock name with options (argument options_arg of the
 * PHP call). Returns REDISLOCK_ERR with an exception thrown on bad input. */
static int lock_init(redislock_object *o, zend_string *name, HashTable *options, uint32_t options_arg)
{
    zend_string *prefix;

    if (!redislock_args_name(name)) {
        return REDISLOCK_ERR;
    }
    if (redislock_options_lock(&o->lock.settings, options, options_arg, &prefix) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (!redislock_args_name_fits(name, prefix)) {
        redislock_settings_dtor(&o->lock.settings);
        zend_string_release(prefix);
        return REDISLOCK_ERR;
    }
    redislock_lock_init(&o->lock, prefix, name);
    zend_string_release(prefix);
    o->part.initialized = true;
    redislock_holds_register(&o->part.hold, &lock_holds);
    return REDISLOCK_OK;
}

PHP_METHOD(RedisLock, __construct)
{
    zend_string *name;
    HashTable *options = NULL;
    redislock_object *o = Z_REDISLOCK_P(ZEND_THIS);

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_STR(name)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    if (o->part.initialized) {
        zend_throw_error(NULL, "RedisLock object is already constructed");
        RETURN_THROWS();
    }
    if (lock_init(o, name, options, 2) != REDISLOCK_OK) {
        RETURN_THROWS();
    }
}

/* Whether token has the form of ours: REDISLOCK_TOKEN_LEN lowercase hex digits. */
static bool token_well_formed(const zend_string *token)
{
    if (ZSTR_LEN(token) != REDISLOCK_TOKEN_LEN) {
        return false;
    }
    for (size_t i = 0; i < REDISLOCK_TOKEN_LEN; i++) {
        char c = ZSTR_VAL(token)[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return false;
        }
    }
    return true;
}

PHP_METHOD(RedisLock, restore)
{
    zend_string *name, *token;
    HashTable *options = NULL;
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_STR(name)
        Z_PARAM_STR(token)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    if (!token_well_formed(token)) {
        zend_argument_value_error(2, "must be a token returned by RedisLock::token() (%d lowercase hex digits)",
                                  REDISLOCK_TOKEN_LEN);
        RETURN_THROWS();
    }
    object_init_ex(return_value, redislock_ce);
    o = Z_REDISLOCK_P(return_value);
    if (lock_init(o, name, options, 3) != REDISLOCK_OK) {
        zval_ptr_dtor(return_value);
        ZVAL_NULL(return_value);
        RETURN_THROWS();
    }
    if (!options || !zend_hash_str_exists(options, "auto_release", sizeof("auto_release") - 1)) {
        /* A hold continued from elsewhere is released when asked, not when
         * this object ends, unless the caller says so. */
        o->lock.settings.auto_release = false;
    }
    redislock_hold_adopt(&o->lock, ZSTR_VAL(token));
}

PHP_METHOD(RedisLock, forceRelease)
{
    zend_string *name;
    HashTable *options = NULL;
    redislock_object *o;
    zval tmp;
    bool deleted;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_STR(name)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    object_init_ex(&tmp, redislock_ce);
    o = Z_REDISLOCK_P(&tmp);
    if (lock_init(o, name, options, 2) != REDISLOCK_OK) {
        zval_ptr_dtor(&tmp);
        RETURN_THROWS();
    }
    if (redislock_hold_force_release(&o->lock, &deleted) != REDISLOCK_OK) {
        redislock_exceptions_throw(&o->lock.err);
        zval_ptr_dtor(&tmp);
        RETURN_THROWS();
    }
    zval_ptr_dtor(&tmp);
    RETURN_BOOL(deleted);
}

PHP_METHOD(RedisLock, acquireRead)
{
    redislock_object *o;
    zend_long wait = 0;
    bool acquired;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_FETCH(o);
    if (!redislock_args_wait(wait, 1, &wait)) {
        RETURN_THROWS();
    }
    if (o->lock.settings.servers->count > 1) {
        zend_value_error("RedisLock::acquireRead(): shared holds need one server, Sentinel or Cluster "
                         "(\"servers\" lists %u)", o->lock.settings.servers->count);
        RETURN_THROWS();
    }
    if (o->lock.settings.fair) {
        zend_value_error("RedisLock::acquireRead(): shared holds are not available in fair mode");
        RETURN_THROWS();
    }
    if (redislock_shared_acquire(&o->lock, wait, &acquired) != REDISLOCK_OK) {
        redislock_exceptions_throw(&o->lock.err);
        RETURN_THROWS();
    }
    RETURN_BOOL(acquired);
}

PHP_METHOD(RedisLock, isShared)
{
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    redislock_hold_keepalive_sync(&o->lock);
    RETURN_BOOL(o->lock.shared && redislock_lock_holding(&o->lock));
}

PHP_METHOD(RedisLock, stats)
{
    ZEND_PARSE_PARAMETERS_NONE();

    redislock_hold_keepalive_count();
    redislock_stats_array(return_value);
}

/* }}} */

void redislock_class_lock_register(void)
{
    redislock_ce = register_class_RedisLock(redislock_exceptions_lock_interface());
    redislock_ce->create_object = redislock_create;
    redislock_object_handlers(&redislock_handlers, XtOffsetOf(redislock_object, std), redislock_free);
    redislock_holds_add_class(&lock_holds);
}
