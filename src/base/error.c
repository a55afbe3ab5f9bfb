/*
 * The error channel (see redislock_error.h): kinds to exception classes.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_redislock.h"
#include "base/error.h"

zend_class_entry *redislock_ce_exception;
zend_class_entry *redislock_ce_conflict;
zend_class_entry *redislock_ce_connection;
zend_class_entry *redislock_ce_release;
zend_class_entry *redislock_ce_lock;

void redislock_error_set(redislock_error *e, redislock_errcode code, const char *fmt, ...)
{
    va_list ap;

    e->code = code;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
}

zend_class_entry *redislock_error_class(redislock_errcode code)
{
    switch (code) {
        case REDISLOCK_E_CONNECTION:
            return redislock_ce_connection;
        case REDISLOCK_E_CONFLICT:
            return redislock_ce_conflict;
        case REDISLOCK_E_RELEASE:
            return redislock_ce_release;
        default:
            return redislock_ce_exception;
    }
}

zend_object *redislock_error_throw(const redislock_error *e)
{
    redislock_errcode code = e->code == REDISLOCK_E_NONE ? REDISLOCK_E_SERVER : e->code;

    if (EG(exception)) {
        return NULL;
    }
    if (code != REDISLOCK_E_CONFLICT) {
        REDISLOCK_G(stats).errors++;
    }
    return zend_throw_exception(redislock_error_class(code), e->msg, code);
}

zend_object *redislock_throw(redislock_errcode code, const char *fmt, ...)
{
    redislock_error e;
    va_list ap;

    e.code = code;
    va_start(ap, fmt);
    vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
    va_end(ap);
    return redislock_error_throw(&e);
}
