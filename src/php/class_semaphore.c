/*
 * RedisLock\Semaphore: at most a limit of permits of a name held at once,
 * each hold with its own token and lease. The protocol is engine/semaphore.c;
 * acquire, release, isAcquired, remaining, token and run are the methods of
 * RedisLock\Lock written once (lock_methods.c); the holds an object or a
 * request leaves are released through the registry of holds (holds.c).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "zend_attributes.h"

#include "php_redislock.h"
#include "engine/semaphore.h"
#include "php/args.h"
#include "php/exceptions.h"
#include "php/holds.h"
#include "php/lock_methods.h"
#include "php/object.h"
#include "php/primitive.h"
#include "php/class_semaphore.h"
#include "php/redislock_semaphore_arginfo.h"

static zend_class_entry *semaphore_ce;
static zend_object_handlers semaphore_handlers;

typedef struct redislock_semaphore_object {
    redislock_semaphore lock;         /* named so for REDISLOCK_LOCK_METHODS_CALL */
    redislock_lock_methods_part part; /* initialized, its hold, its error (lock_methods.h) */
    zend_object std;
} redislock_semaphore_object;

#define HOLD_OBJECT(h) \
    ((redislock_semaphore_object *) ((char *) (h) - XtOffsetOf(redislock_semaphore_object, part.hold)))

/* RedisLock's options that mean nothing to a semaphore. */
static const char *const semaphore_refused[] = { "fencing", "fair", "quorum_timeout", "sync_replicas", NULL };

/* {{{ The hold: released when the object or the request ends */

/* Whether a hold whose object or request is ending is to be released:
 * auto_release is on, or run() was interrupted, or only a grant of unknown
 * outcome remains. A forked child never releases its parent's hold. */
static bool auto_release_due(redislock_semaphore_object *o)
{
    redislock_semaphore *s = &o->lock;

    return o->part.initialized && redislock_semaphore_owned(s)
           && (!s->held || s->prim.settings.auto_release || o->part.hold.in_run);
}

/* Releases the hold of an object or request that ends, when due. Failures
 * are counted, never thrown (the lease runs out by itself). */
static void auto_release(redislock_holds_entry *h)
{
    redislock_semaphore_object *o = HOLD_OBJECT(h);
    bool released;

    if (!auto_release_due(o)) {
        return;
    }
    if (redislock_semaphore_keepalive_release(&o->lock, &released) != REDISLOCK_OK) {
        REDISLOCK_G(stats).errors++;
        redislock_semaphore_over(&o->lock);
    } else if (released) {
        REDISLOCK_G(stats).auto_released++;
    }
}

/* run()'s release, after its callback. */
static const redislock_error *run_release(redislock_holds_entry *h)
{
    redislock_semaphore_object *o = HOLD_OBJECT(h);
    bool released;

    if (redislock_semaphore_keepalive_release(&o->lock, &released) == REDISLOCK_OK) {
        return NULL;
    }
    redislock_semaphore_over(&o->lock);
    return &o->lock.prim.err;
}

/* At request end: a hold kept past its request (auto_release off) is
 * renewed no more; one due a release is released. */
static void request_end(redislock_holds_entry *h)
{
    redislock_semaphore_keepalive_stop(&HOLD_OBJECT(h)->lock);
    auto_release(h);
}

/* end, request_end, request_done, release (see holds.h) */
static const redislock_holds_ops semaphore_holds = { auto_release, request_end, NULL, run_release };

/* }}} */

/* {{{ The methods shared with RedisLock\Lock (lock_methods.c) */

REDISLOCK_LOCK_METHODS_CALL(semaphore_call, redislock_semaphore_object, redislock_semaphore_keepalive_acquire,
                            redislock_semaphore_keepalive_release, redislock_semaphore_keepalive_check,
                            redislock_semaphore_keepalive_extend)

static bool semaphore_held(zend_object *obj, redislock_lock_methods_held *held)
{
    redislock_semaphore *s = &REDISLOCK_OBJECT(redislock_semaphore_object, obj)->lock;

    redislock_semaphore_keepalive_sync(s);
    if (!redislock_semaphore_holding(s)) {
        return false;
    }
    held->token = s->member;
    held->token_len = REDISLOCK_SEMAPHORE_TOKEN_LEN;
    held->fence = -1;
    return true;
}

static zend_long semaphore_remaining(zend_object *obj)
{
    redislock_semaphore *s = &REDISLOCK_OBJECT(redislock_semaphore_object, obj)->lock;

    redislock_semaphore_keepalive_sync(s);
    return redislock_semaphore_remaining(s);
}

static const redislock_lock_methods_ops semaphore_methods = {
    .part_offset = XtOffsetOf(redislock_semaphore_object, std) - XtOffsetOf(redislock_semaphore_object, part),
    .count_acquire = false, /* engine/semaphore.c counts */
    .what = "the permits",
    .call = semaphore_call,
    .held = semaphore_held,
    .remaining = semaphore_remaining,
};

PHP_METHOD(RedisLock_Semaphore, acquire)
{
    redislock_lock_methods_acquire(&semaphore_methods, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_METHOD(RedisLock_Semaphore, release)
{
    redislock_lock_methods_release(&semaphore_methods, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_METHOD(RedisLock_Semaphore, isAcquired)
{
    redislock_lock_methods_is_acquired(&semaphore_methods, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_METHOD(RedisLock_Semaphore, remaining)
{
    redislock_lock_methods_remaining(&semaphore_methods, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_METHOD(RedisLock_Semaphore, token)
{
    redislock_lock_methods_token(&semaphore_methods, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

PHP_METHOD(RedisLock_Semaphore, run)
{
    redislock_lock_methods_run(&semaphore_methods, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* }}} */

/* {{{ Object handlers */

static zend_object *semaphore_create(zend_class_entry *ce)
{
    zend_object *obj = redislock_object_create(ce, sizeof(redislock_semaphore_object), &semaphore_handlers);
    redislock_semaphore_object *o = REDISLOCK_OBJECT(redislock_semaphore_object, obj);

    o->part.err = &o->lock.prim.err;
    return obj;
}

static void semaphore_free(zend_object *obj)
{
    redislock_semaphore_object *o = REDISLOCK_OBJECT(redislock_semaphore_object, obj);

    redislock_holds_end(&o->part.hold);
    if (o->part.initialized) {
        redislock_semaphore_keepalive_dtor(&o->lock);
    }
    if (o->lock.prim.initialized) {
        redislock_prim_dtor(&o->lock.prim);
    }
    zend_object_std_dtor(obj);
}

/* }}} */

/* {{{ RedisLock\Semaphore methods */

/* The 'weight' option of options (argument arg_num): 1 to limit, 1 without
 * it. false with a TypeError or ValueError thrown when it is not one. */
static bool weight_option(HashTable *options, uint32_t arg_num, zend_long limit, zend_long *weight)
{
    zval *val = options ? zend_hash_str_find_deref(options, "weight", sizeof("weight") - 1) : NULL;

    *weight = 1;
    if (!val) {
        return true;
    }
    if (Z_TYPE_P(val) != IS_LONG) {
        zend_argument_type_error(arg_num, "option \"weight\" must be of type int, %s given", zend_zval_type_name(val));
        return false;
    }
    if (Z_LVAL_P(val) < 1 || Z_LVAL_P(val) > limit) {
        zend_argument_value_error(arg_num, "option \"weight\" must be between 1 and the limit (" ZEND_LONG_FMT ")",
                                  limit);
        return false;
    }
    *weight = Z_LVAL_P(val);
    return true;
}

/* Sets up o for the semaphore name with limit and options (argument
 * options_arg). Returns REDISLOCK_ERR with an exception thrown on bad input. */
static int semaphore_init(redislock_semaphore_object *o, zend_string *name, zend_long limit, HashTable *options,
                          uint32_t options_arg)
{
    zend_long weight;

    if (!weight_option(options, options_arg, limit, &weight)
        || redislock_primitive_init_refusing(&o->lock.prim, "RedisLock\\Semaphore",
                                             "permits counted on independent masters cannot enforce one limit",
                                             name, REDISLOCK_SEMAPHORE_SUFFIX, options, options_arg, "weight",
                                             semaphore_refused) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    redislock_semaphore_init(&o->lock, limit, weight);
    o->part.initialized = true;
    redislock_holds_register(&o->part.hold, &semaphore_holds);
    return REDISLOCK_OK;
}

PHP_METHOD(RedisLock_Semaphore, __construct)
{
    zend_string *name;
    zend_long limit;
    HashTable *options = NULL;
    redislock_semaphore_object *o = REDISLOCK_OBJECT(redislock_semaphore_object, Z_OBJ_P(ZEND_THIS));

    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_STR(name)
        Z_PARAM_LONG(limit)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    if (o->part.initialized) {
        zend_throw_error(NULL, "RedisLock\\Semaphore object is already constructed");
        RETURN_THROWS();
    }
    if (!redislock_args_name(name)) {
        RETURN_THROWS();
    }
    if (limit < 1 || limit > REDISLOCK_SEMAPHORE_LIMIT_MAX) {
        zend_argument_value_error(2, "must be between 1 and %d", REDISLOCK_SEMAPHORE_LIMIT_MAX);
        RETURN_THROWS();
    }
    if (semaphore_init(o, name, limit, options, 3) != REDISLOCK_OK) {
        RETURN_THROWS();
    }
}

PHP_METHOD(RedisLock_Semaphore, extend)
{
    redislock_semaphore_object *o;
    zend_long ttl = 0;
    bool extended;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_OBJECT_FETCH(o, redislock_semaphore_object, part.initialized);
    if (ttl < 0 || ttl > REDISLOCK_TTL_MAX) {
        zend_argument_value_error(1, "must be between 0 and %d", REDISLOCK_TTL_MAX);
        RETURN_THROWS();
    }
    if (redislock_semaphore_keepalive_extend(&o->lock, ttl > 0 ? ttl : o->lock.prim.settings.ttl, &extended)
        != REDISLOCK_OK) {
        redislock_exceptions_throw(&o->lock.prim.err);
        RETURN_THROWS();
    }
    RETURN_BOOL(extended);
}

PHP_METHOD(RedisLock_Semaphore, available)
{
    redislock_semaphore_object *o;
    zend_long free;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_OBJECT_FETCH(o, redislock_semaphore_object, part.initialized);
    if (redislock_semaphore_available(&o->lock, &free) != REDISLOCK_OK) {
        redislock_exceptions_throw(&o->lock.prim.err);
        RETURN_THROWS();
    }
    RETURN_LONG(free);
}

PHP_METHOD(RedisLock_Semaphore, forceRelease)
{
    zend_string *name;
    HashTable *options = NULL;
    redislock_semaphore_object *o;
    zval tmp;
    bool freed;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_STR(name)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT(options)
    ZEND_PARSE_PARAMETERS_END();

    if (!redislock_args_name(name)) {
        RETURN_THROWS();
    }
    object_init_ex(&tmp, semaphore_ce);
    o = REDISLOCK_OBJECT(redislock_semaphore_object, Z_OBJ(tmp));
    if (semaphore_init(o, name, REDISLOCK_SEMAPHORE_LIMIT_MAX, options, 2) != REDISLOCK_OK) {
        zval_ptr_dtor(&tmp);
        RETURN_THROWS();
    }
    if (redislock_semaphore_force_release(&o->lock, &freed) != REDISLOCK_OK) {
        redislock_exceptions_throw(&o->lock.prim.err);
        zval_ptr_dtor(&tmp);
        RETURN_THROWS();
    }
    zval_ptr_dtor(&tmp);
    RETURN_BOOL(freed);
}

/* }}} */

void redislock_class_semaphore_register(void)
{
    semaphore_ce = register_class_RedisLock_Semaphore();
    semaphore_ce->create_object = semaphore_create;
    redislock_object_handlers(&semaphore_handlers, XtOffsetOf(redislock_semaphore_object, std), semaphore_free);
    redislock_holds_add_class(&semaphore_holds);
}
