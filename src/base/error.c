/*
 * The error channel (see error.h): a kind and a message, recorded where the
 * failure happened.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"

#include "base/error.h"

void redislock_error_set(redislock_error *e, redislock_errcode code, const char *fmt, ...)
{
    va_list ap;

    e->code = code;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
}
