/*
 * The error channel (see redislock_error.h): kinds to exception classes,
 * and messages made safe to show.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_redislock.h"
#include "redislock_error.h"

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

/* Replaces every occurrence of a secret in the NUL-terminated message with
 * "***", in one pass over the original text so a mask is never masked
 * again, cutting the result to fit out. */
static void scrub(const char *msg, char *out, size_t size, const char **secrets, const size_t *lens, size_t count)
{
    size_t len = strlen(msg), n = 0, i = 0;

    while (i < len && n + 1 < size) {
        size_t hit = 0;
        for (size_t k = 0; k < count; k++) {
            if (lens[k] > hit && lens[k] <= len - i && memcmp(msg + i, secrets[k], lens[k]) == 0) {
                hit = lens[k];
            }
        }
        if (hit) {
            size_t stars = MIN(3, size - 1 - n);
            memcpy(out + n, "***", stars);
            n += stars;
            i += hit;
        } else {
            out[n++] = msg[i++];
        }
    }
    out[n] = '\0';
}

zend_object *redislock_error_throw(const redislock_error *e, const char **secrets, const size_t *lens, size_t count)
{
    char msg[REDISLOCK_ERROR_MSGLEN];
    redislock_errcode code = e->code == REDISLOCK_E_NONE ? REDISLOCK_E_SERVER : e->code;

    if (EG(exception)) {
        return NULL;
    }
    scrub(e->msg, msg, sizeof(msg), secrets, lens, count);
    if (code != REDISLOCK_E_CONFLICT) {
        REDISLOCK_G(stats).errors++;
    }
    return zend_throw_exception(redislock_error_class(code), msg, code);
}

zend_object *redislock_throw(redislock_errcode code, const char *fmt, ...)
{
    redislock_error e;
    va_list ap;

    e.code = code;
    va_start(ap, fmt);
    vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
    va_end(ap);
    return redislock_error_throw(&e, NULL, NULL, 0);
}
