/*
 * The methods of the interface RedisLock\Lock, once for every class that
 * implements it (see lock_methods.h).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_redislock.h"
#include "config/config.h"
#include "php/args.h"
#include "php/exceptions.h"
#include "php/lock_methods.h"
#include "php/object.h"

/* $this's part, or NULL with an Error thrown when its constructor did not
 * complete. */
static redislock_lock_methods_part *fetch(const redislock_lock_methods_ops *ops, zend_execute_data *execute_data)
{
    redislock_lock_methods_part *p = redislock_lock_methods_part_of(ops, Z_OBJ_P(ZEND_THIS));

    if (!p->initialized) {
        redislock_object_not_initialized(Z_OBJ_P(ZEND_THIS));
        return NULL;
    }
    return p;
}

/* Runs call on $this's lock; false with the lock's error thrown when it
 * failed. */
static bool call(const redislock_lock_methods_ops *ops, zend_execute_data *execute_data, redislock_lock_methods_part *p,
                 redislock_lock_methods_call what, zend_long arg, bool *answer)
{
    if (ops->call(Z_OBJ_P(ZEND_THIS), what, arg, answer) != REDISLOCK_OK) {
        redislock_exceptions_throw(p->err);
        return false;
    }
    return true;
}

void redislock_lock_methods_acquire(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS)
{
    redislock_lock_methods_part *p;
    zend_long wait = 0;
    bool acquired;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    if (!(p = fetch(ops, execute_data)) || !redislock_args_wait(wait, 1, &wait)
        || !call(ops, execute_data, p, REDISLOCK_LOCK_METHODS_ACQUIRE, wait, &acquired)) {
        RETURN_THROWS();
    }
    if (ops->count_acquire) {
        if (acquired) {
            REDISLOCK_G(stats).acquired++;
        } else {
            REDISLOCK_G(stats).contended++;
        }
    }
    RETURN_BOOL(acquired);
}

/* release() and isAcquired(): no arguments, one call, its answer. */
static void ask(const redislock_lock_methods_ops *ops, redislock_lock_methods_call what, INTERNAL_FUNCTION_PARAMETERS)
{
    redislock_lock_methods_part *p;
    bool answer;

    ZEND_PARSE_PARAMETERS_NONE();
    if (!(p = fetch(ops, execute_data)) || !call(ops, execute_data, p, what, 0, &answer)) {
        RETURN_THROWS();
    }
    RETURN_BOOL(answer);
}

void redislock_lock_methods_release(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS)
{
    ask(ops, REDISLOCK_LOCK_METHODS_RELEASE, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

void redislock_lock_methods_is_acquired(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS)
{
    ask(ops, REDISLOCK_LOCK_METHODS_CHECK, INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

/* extend(?int $ttlMs = null): null asks for the lock's own ttl (0 to the
 * class); a given one must be a lease RedisLock could set. */
void redislock_lock_methods_extend(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS)
{
    redislock_lock_methods_part *p;
    zend_long ttl = 0;
    bool ttl_null = true, extended;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
    ZEND_PARSE_PARAMETERS_END();

    if (!(p = fetch(ops, execute_data))) {
        RETURN_THROWS();
    }
    if (!ttl_null && (ttl < 1 || ttl > REDISLOCK_TTL_MAX)) {
        zend_argument_value_error(1, "must be between 1 and %d", REDISLOCK_TTL_MAX);
        RETURN_THROWS();
    }
    if (!call(ops, execute_data, p, REDISLOCK_LOCK_METHODS_EXTEND, ttl_null ? 0 : ttl, &extended)) {
        RETURN_THROWS();
    }
    RETURN_BOOL(extended);
}

void redislock_lock_methods_remaining(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS)
{
    ZEND_PARSE_PARAMETERS_NONE();
    if (!fetch(ops, execute_data)) {
        RETURN_THROWS();
    }
    RETURN_LONG(ops->remaining(Z_OBJ_P(ZEND_THIS)));
}

void redislock_lock_methods_token(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS)
{
    redislock_lock_methods_held held;

    ZEND_PARSE_PARAMETERS_NONE();
    if (!fetch(ops, execute_data)) {
        RETURN_THROWS();
    }
    if (!ops->held(Z_OBJ_P(ZEND_THIS), &held)) {
        RETURN_NULL();
    }
    RETURN_STRINGL(held.token, held.token_len);
}

void redislock_lock_methods_fence(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS)
{
    redislock_lock_methods_held held;

    ZEND_PARSE_PARAMETERS_NONE();
    if (!fetch(ops, execute_data)) {
        RETURN_THROWS();
    }
    if (!ops->held(Z_OBJ_P(ZEND_THIS), &held) || held.fence < 0) {
        RETURN_NULL();
    }
    RETURN_LONG(held.fence);
}

void redislock_lock_methods_run(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS)
{
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    redislock_lock_methods_part *p;
    zend_long wait = 0, cut;
    bool acquired;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(wait)
    ZEND_PARSE_PARAMETERS_END();

    if (!(p = fetch(ops, execute_data)) || !redislock_args_wait(wait, 2, &cut)
        || !redislock_holds_run_allowed(&p->hold, Z_OBJ_P(ZEND_THIS))
        || !call(ops, execute_data, p, REDISLOCK_LOCK_METHODS_ACQUIRE, cut, &acquired)) {
        RETURN_THROWS();
    }
    if (!acquired) {
        redislock_exceptions_throwf(REDISLOCK_E_CONFLICT, "could not acquire %s within " ZEND_LONG_FMT " ms", ops->what,
                                    wait);
        RETURN_THROWS();
    }
    redislock_holds_run(&p->hold, &fci, &fcc, return_value);
}
