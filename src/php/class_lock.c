/*
 * The RedisLock class: its objects, methods, and the release of the locks an
 * object or a request leaves held. The protocol behind each method lives in
 * redislock_lock.c; the exceptions and their kinds in redislock_error.c.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "zend_attributes.h"
#include "zend_interfaces.h"
#include "ext/spl/spl_exceptions.h"

#include "php_redislock.h"
#include "php/class_lock.h"
#include "config/config.h"
#include "base/error.h"
#include "engine/lock.h"
#include "php/options.h"
#include "engine/hold.h"
#include "engine/acquire.h"
#include "php/redislock_arginfo.h"

static zend_class_entry *redislock_ce;
static zend_object_handlers redislock_handlers;

typedef struct redislock_object {
    redislock_lock lock;
    bool initialized;                  /* the constructor completed */
    bool in_run;                       /* inside run(): release at request end whatever auto_release says */
    bool tracked;                      /* linked into REDISLOCK_G(tracked) */
    struct redislock_object *prev, *next;
    zend_object std;
} redislock_object;

static inline redislock_object *redislock_from_obj(zend_object *obj)
{
    return (redislock_object *) ((char *) obj - XtOffsetOf(redislock_object, std));
}

#define Z_REDISLOCK_P(zv) redislock_from_obj(Z_OBJ_P(zv))


/* {{{ Tracking: the locks of this request, released at its end */

static void track(redislock_object *o)
{
    o->prev = NULL;
    o->next = REDISLOCK_G(tracked);
    if (o->next) {
        o->next->prev = o;
    }
    REDISLOCK_G(tracked) = o;
    o->tracked = true;
}

static void untrack(redislock_object *o)
{
    if (!o->tracked) {
        return;
    }
    if (o->prev) {
        o->prev->next = o->next;
    } else {
        REDISLOCK_G(tracked) = o->next;
    }
    if (o->next) {
        o->next->prev = o->prev;
    }
    o->prev = o->next = NULL;
    o->tracked = false;
}

/* Whether a lock whose object or request is ending is to be released:
 * auto_release is on, or run() was interrupted, or only leftovers of a lost
 * or unfinished hold remain. */
static bool auto_release_due(redislock_object *o)
{
    redislock_lock *l = &o->lock;

    return o->initialized && redislock_lock_owned(l) && (!l->held || l->settings.auto_release || o->in_run);
}

/* Releases a lock whose object is ending, when it should be. A release of
 * unknown outcome leaves the token as a leftover, removed later. Failures
 * are counted, never thrown. */
static void auto_release(redislock_object *o)
{
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

/* }}} */

void redislock_class_request_end(void)
{
    while (REDISLOCK_G(tracked)) {
        redislock_object *o = REDISLOCK_G(tracked);
        if (auto_release_due(o)) {
            redislock_hold_abandon(&o->lock, true);
        }
        untrack(o);
    }
}

/* {{{ Errors */

/* Throws the lock's error as the exception of its kind, unless an exception
 * (from the CSPRNG) is already pending. No message is composed with a token
 * or a password (see redislock_error_throw()). */
static zend_object *throw_lock_error(redislock_object *o)
{
    return redislock_error_throw(&o->lock.err);
}

/* run()'s release failed after $fn returned *result: throws a
 * RedisLock\ReleaseException saying why, carrying the result (moved out of
 * *result, which is left null). */
static void throw_release_error(redislock_object *o, zval *result)
{
    redislock_lock *l = &o->lock;
    char cause[REDISLOCK_ERROR_MSGLEN];
    zend_object *ex;

    memcpy(cause, l->err.msg, sizeof(cause));
    redislock_error_set(&l->err, REDISLOCK_E_RELEASE, "the work is done, but releasing the lock failed: %s", cause);
    ex = throw_lock_error(o);
    if (ex) {
        zend_update_property(redislock_ce_release, ex, "result", sizeof("result") - 1, result);
    }
    zval_ptr_dtor(result);
    ZVAL_NULL(result);
}

#define REDISLOCK_FETCH(o) do { \
        (o) = Z_REDISLOCK_P(ZEND_THIS); \
        if (!(o)->initialized) { \
            zend_throw_error(NULL, "RedisLock object is not initialized"); \
            RETURN_THROWS(); \
        } \
    } while (0)

/* }}} */

/* {{{ Object handlers */

static zend_object *redislock_create(zend_class_entry *ce)
{
    redislock_object *o = zend_object_alloc(sizeof(redislock_object), ce);

    zend_object_std_init(&o->std, ce);
    o->std.handlers = &redislock_handlers;
    return &o->std;
}

static void redislock_free(zend_object *obj)
{
    redislock_object *o = redislock_from_obj(obj);

    if (o->tracked) {
        /* Still inside the request: the object's end is the lock's end. */
        auto_release(o);
        untrack(o);
    }
    if (o->initialized) {
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

    if (ZSTR_LEN(name) == 0) {
        zend_argument_value_error(1, "must not be empty");
        return REDISLOCK_ERR;
    }
    if (redislock_options_lock(&o->lock.settings, options, options_arg, &prefix) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (!redislock_keys_name_fits(ZSTR_LEN(name), ZSTR_LEN(prefix))) {
        redislock_settings_dtor(&o->lock.settings);
        zend_string_release(prefix);
        return REDISLOCK_ERR;
    }
    redislock_lock_init(&o->lock, prefix, name);
    zend_string_release(prefix);
    o->initialized = true;
    track(o);
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

    if (o->initialized) {
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
        throw_lock_error(o);
        zval_ptr_dtor(&tmp);
        RETURN_THROWS();
    }
    zval_ptr_dtor(&tmp);
    RETURN_BOOL(deleted);
}

PHP_METHOD(RedisLock, acquire)
{
    zend_long wait = 0;
    redislock_object *o;
    bool acquired;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_FETCH(o);
    if (wait < 0) {
        zend_argument_value_error(1, "must be greater than or equal to 0");
        RETURN_THROWS();
    }
    if (redislock_acquire_lock(&o->lock, MIN(wait, REDISLOCK_WAIT_MAX), &acquired) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(acquired);
}

PHP_METHOD(RedisLock, release)
{
    redislock_object *o;
    bool released;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    if (redislock_hold_release(&o->lock, &released) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(released);
}

PHP_METHOD(RedisLock, extend)
{
    zend_long ttl = 0;
    bool ttl_null = true, extended;
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_FETCH(o);
    if (ttl_null) {
        ttl = o->lock.settings.ttl;
    } else if (ttl < 1 || ttl > REDISLOCK_TTL_MAX) {
        zend_argument_value_error(1, "must be between 1 and %d", REDISLOCK_TTL_MAX);
        RETURN_THROWS();
    }
    if (redislock_hold_extend(&o->lock, ttl, &extended) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(extended);
}

PHP_METHOD(RedisLock, isAcquired)
{
    redislock_object *o;
    bool ours;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    if (redislock_hold_check(&o->lock, &ours) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    RETURN_BOOL(ours);
}

PHP_METHOD(RedisLock, remaining)
{
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    RETURN_LONG(redislock_lock_remaining(&o->lock));
}

PHP_METHOD(RedisLock, token)
{
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    if (!redislock_lock_holding(&o->lock)) {
        RETURN_NULL();
    }
    RETURN_STRINGL(o->lock.token, REDISLOCK_TOKEN_LEN);
}

PHP_METHOD(RedisLock, fence)
{
    redislock_object *o;

    ZEND_PARSE_PARAMETERS_NONE();
    REDISLOCK_FETCH(o);
    if (!redislock_lock_holding(&o->lock) || !o->lock.settings.fencing || o->lock.fence <= 0) {
        RETURN_NULL();
    }
    RETURN_LONG(o->lock.fence);
}

PHP_METHOD(RedisLock, run)
{
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    zend_long wait = 0;
    redislock_object *o;
    bool acquired, released;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    REDISLOCK_FETCH(o);
    if (wait < 0) {
        zend_argument_value_error(2, "must be greater than or equal to 0");
        RETURN_THROWS();
    }
    if (o->in_run) {
        /* The inner run() would release the outer one's hold. */
        zend_throw_error(NULL, "RedisLock::run() is already running on this object");
        RETURN_THROWS();
    }
    if (redislock_acquire_lock(&o->lock, MIN(wait, REDISLOCK_WAIT_MAX), &acquired) != REDISLOCK_OK) {
        throw_lock_error(o);
        RETURN_THROWS();
    }
    if (!acquired) {
        redislock_throw(REDISLOCK_E_CONFLICT, "could not acquire the lock within " ZEND_LONG_FMT " ms", wait);
        RETURN_THROWS();
    }

    /* A fatal error inside $fn never returns here: in_run has the request
     * end release the lock instead. */
    o->in_run = true;
    fci.retval = return_value;
    zend_call_function(&fci, &fcc);
    o->in_run = false;

    /* run() releases in all cases: a release of unknown outcome leaves the
     * token as a leftover, removed later (see redislock_leftovers.h). */
    if (EG(exception)) {
        /* $fn's exception wins; the lock is released all the same. */
        if (redislock_hold_release(&o->lock, &released) != REDISLOCK_OK) {
            REDISLOCK_G(stats).errors++;
            redislock_hold_abandon(&o->lock, false);
        }
        return;
    }
    if (redislock_hold_release(&o->lock, &released) != REDISLOCK_OK) {
        throw_release_error(o, return_value);
        redislock_hold_abandon(&o->lock, false);
        RETURN_THROWS();
    }
}

PHP_METHOD(RedisLock, stats)
{
    ZEND_PARSE_PARAMETERS_NONE();

    redislock_stats_array(return_value);
}

/* }}} */

/* {{{ RedisLock\ReleaseException */

PHP_METHOD(RedisLock_ReleaseException, result)
{
    zval *value, rv;

    ZEND_PARSE_PARAMETERS_NONE();
    value = zend_read_property(redislock_ce_release, Z_OBJ_P(ZEND_THIS), "result", sizeof("result") - 1, true, &rv);
    RETURN_COPY_DEREF(value);
}

/* }}} */

void redislock_class_register(void)
{
    redislock_ce_lock = register_class_RedisLock_Lock();
    redislock_ce = register_class_RedisLock(redislock_ce_lock);
    redislock_ce->create_object = redislock_create;
    memcpy(&redislock_handlers, &std_object_handlers, sizeof(zend_object_handlers));
    redislock_handlers.offset = XtOffsetOf(redislock_object, std);
    redislock_handlers.free_obj = redislock_free;
    redislock_handlers.clone_obj = NULL;

    redislock_ce_exception = register_class_RedisLockException(spl_ce_RuntimeException);
    redislock_ce_conflict = register_class_RedisLock_ConflictException(redislock_ce_exception);
    redislock_ce_connection = register_class_RedisLock_ConnectionException(redislock_ce_exception);
    redislock_ce_release = register_class_RedisLock_ReleaseException(redislock_ce_exception);
}
