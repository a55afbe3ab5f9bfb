/*
 * One error channel: a kind and a message, kept where the failure happened
 * (as hiredis keeps err/errstr in its context), and turned into an exception
 * at the PHP boundary only: the kind picks the class and is the exception's
 * code (RedisLockException::CONNECTION, ...).
 */
#ifndef REDISLOCK_ERROR_H
#define REDISLOCK_ERROR_H

#include "php.h"

/* What kind of failure. The numbers are public: they are the codes of the
 * exceptions and the values of RedisLockException's constants. */
typedef enum redislock_errcode {
    REDISLOCK_E_NONE = 0,
    REDISLOCK_E_CONFIG = 1,     /* a setting cannot be used (an INI value that does not parse) */
    REDISLOCK_E_CONNECTION = 2, /* unreachable, lost, no reply in time: the outcome is unknown */
    REDISLOCK_E_SERVER = 3,     /* a server answered with an error */
    REDISLOCK_E_CONFLICT = 4,   /* held by someone else and the wait ran out */
    REDISLOCK_E_RELEASE = 5,    /* run(): the work is done, releasing the lock failed */
} redislock_errcode;

#define REDISLOCK_ERROR_MSGLEN 768

typedef struct redislock_error {
    redislock_errcode code;
    char msg[REDISLOCK_ERROR_MSGLEN];
} redislock_error;

/* The exception classes and the interface, registered in MINIT. */
extern zend_class_entry *redislock_ce_exception;  /* RedisLockException */
extern zend_class_entry *redislock_ce_conflict;   /* RedisLock\ConflictException */
extern zend_class_entry *redislock_ce_connection; /* RedisLock\ConnectionException */
extern zend_class_entry *redislock_ce_release;    /* RedisLock\ReleaseException */
extern zend_class_entry *redislock_ce_lock;       /* the interface RedisLock\Lock */

/* Records a failure of kind code in e (printf-style message). */
void redislock_error_set(redislock_error *e, redislock_errcode code, const char *fmt, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);

/* The exception class for a kind of failure. */
zend_class_entry *redislock_error_class(redislock_errcode code);

/* Throws e as the exception of its kind, its message as it is, and counts
 * it in stats()'s errors (a conflict is not an error). Returns the
 * exception. Does nothing and returns NULL when an exception is already
 * pending. Nothing is masked here: no secret (password, token) is ever
 * composed into a message. Messages name servers by their label (host,
 * port, database or socket path: never a credential), and quote a
 * server's error text only through redislock_reply_error_text(), which
 * drops what could echo a command's arguments. So no message depends on a
 * password's value. */
zend_object *redislock_error_throw(const redislock_error *e);

/* Throws a failure of kind code with a message that holds no secret. */
zend_object *redislock_throw(redislock_errcode code, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);

#endif /* REDISLOCK_ERROR_H */
