/*
 * The exceptions and the interface RedisLock\Lock (see exceptions.h): kinds
 * of failure to exception classes.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "ext/spl/spl_exceptions.h"

#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif

#include "php_redislock.h"
#include "php/exceptions.h"
#include "php/redislock_exceptions_arginfo.h"

static zend_class_entry *ce_lock;       /* the interface RedisLock\Lock */
static zend_class_entry *ce_exception;  /* RedisLockException */
static zend_class_entry *ce_conflict;   /* RedisLock\ConflictException */
static zend_class_entry *ce_connection; /* RedisLock\ConnectionException */
static zend_class_entry *ce_release;    /* RedisLock\ReleaseException */

void redislock_exceptions_register(void)
{
    ce_lock = register_class_RedisLock_Lock();
    ce_exception = register_class_RedisLockException(spl_ce_RuntimeException);
    ce_conflict = register_class_RedisLock_ConflictException(ce_exception);
    ce_connection = register_class_RedisLock_ConnectionException(ce_exception);
    ce_release = register_class_RedisLock_ReleaseException(ce_exception);
}

zend_class_entry *redislock_exceptions_lock_interface(void)
{
    return ce_lock;
}

/* The exception class for a kind of failure. */
static zend_class_entry *exception_class(redislock_errcode code)
{
    switch (code) {
        case REDISLOCK_E_CONNECTION:
            return ce_connection;
        case REDISLOCK_E_CONFLICT:
            return ce_conflict;
        case REDISLOCK_E_RELEASE:
            return ce_release;
        default:
            return ce_exception;
    }
}

/* The system's CSPRNG had no bytes (what: e's message): asking it again,
 * throwing, has PHP say why in its own words, with its own exception. */
static zend_object *throw_random(const redislock_error *e)
{
    unsigned char byte;

    if (php_random_bytes(&byte, 1, true) == SUCCESS) {
#if PHP_VERSION_ID >= 80200
        return zend_throw_exception(random_ce_Random_RandomException, e->msg, 0);
#else
        return zend_throw_exception(zend_ce_exception, e->msg, 0);
#endif
    }
    return EG(exception);
}

zend_object *redislock_exceptions_throw(const redislock_error *e)
{
    redislock_errcode code = e->code == REDISLOCK_E_NONE ? REDISLOCK_E_SERVER : e->code;

    if (EG(exception)) {
        return NULL;
    }
    if (code == REDISLOCK_E_RANDOM) {
        return throw_random(e);
    }
    if (code != REDISLOCK_E_CONFLICT) {
        REDISLOCK_G(stats).errors++;
    }
    return zend_throw_exception(exception_class(code), e->msg, code);
}

zend_object *redislock_exceptions_throwf(redislock_errcode code, const char *fmt, ...)
{
    redislock_error e;
    va_list ap;

    e.code = code;
    va_start(ap, fmt);
    vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
    va_end(ap);
    return redislock_exceptions_throw(&e);
}

void redislock_exceptions_throw_release(const char *cause, zval *result)
{
    zend_object *ex = redislock_exceptions_throwf(REDISLOCK_E_RELEASE,
                                                  "the work is done, but releasing the lock failed: %s", cause);

    if (ex) {
        zend_update_property(ce_release, ex, "result", sizeof("result") - 1, result);
    }
    zval_ptr_dtor(result);
    ZVAL_NULL(result);
}

/* RedisLock\ReleaseException::result(): what $fn returned. */
PHP_METHOD(RedisLock_ReleaseException, result)
{
    zval *value, rv;

    ZEND_PARSE_PARAMETERS_NONE();
    value = zend_read_property(ce_release, Z_OBJ_P(ZEND_THIS), "result", sizeof("result") - 1, true, &rv);
    RETURN_COPY_DEREF(value);
}
