/*
 * One error channel: a kind and a message, kept where the failure happened
 * (as hiredis keeps err/errstr in its context), and turned into an exception
 * at the PHP boundary only (php/exceptions.c): the kind picks the class and
 * is the exception's code (RedisLockException::CONNECTION, ...). Nothing
 * below the binding throws.
 */
#ifndef REDISLOCK_ERROR_H
#define REDISLOCK_ERROR_H

#include "php.h"

/* What kind of failure. The numbers are public: they are the codes of the
 * exceptions and the values of RedisLockException's constants. */
typedef enum redislock_errcode {
    REDISLOCK_E_NONE = 0,
    REDISLOCK_E_CONFIG = 1,     /* a setting cannot be used (an INI value that does not parse; a quorum list
                                   naming one server twice) */
    REDISLOCK_E_CONNECTION = 2, /* unreachable, lost, no reply in time, or refused for the server's state
                                   (client/reply.c: LOADING, READONLY, OOM, NOAUTH...): the outcome is
                                   unknown, trying again later may work */
    REDISLOCK_E_SERVER = 3,     /* a server answered with an error about the request */
    REDISLOCK_E_CONFLICT = 4,   /* held by someone else and the wait ran out */
    REDISLOCK_E_RELEASE = 5,    /* run(): the work is done, releasing the lock failed */
    REDISLOCK_E_RANDOM = -1,    /* not a code of ours: the system's CSPRNG had no bytes to give, which
                                   the binding reports as PHP's own exception for that */
} redislock_errcode;

#define REDISLOCK_ERROR_MSGLEN 768

typedef struct redislock_error {
    redislock_errcode code;
    char msg[REDISLOCK_ERROR_MSGLEN];
} redislock_error;

/* Records a failure of kind code in e (printf-style message). */
void redislock_error_set(redislock_error *e, redislock_errcode code, const char *fmt, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);

#endif /* REDISLOCK_ERROR_H */
