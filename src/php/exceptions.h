/*
 * The exception classes (RedisLockException and its subclasses in the
 * RedisLock namespace) and the interface RedisLock\Lock: where an error kept
 * as a value (base/error.h) becomes an exception. The only place that
 * throws one of ours.
 */
#ifndef REDISLOCK_EXCEPTIONS_H
#define REDISLOCK_EXCEPTIONS_H

#include "php.h"
#include "base/error.h"

/* MINIT: registers the interface RedisLock\Lock and the exceptions, before
 * the classes that implement the interface. */
void redislock_exceptions_register(void);

/* The interface RedisLock\Lock, for the classes that implement it. */
zend_class_entry *redislock_exceptions_lock_interface(void);

/* Throws e as the exception of its kind, its message as it is, and counts
 * it in stats()'s errors (a conflict is not an error). Returns the
 * exception. Does nothing and returns NULL when an exception is already
 * pending. A failure of kind REDISLOCK_E_RANDOM is PHP's own exception for
 * a CSPRNG with no bytes, in PHP's words, and is not counted. Nothing is
 * masked here: no secret (password, token) is ever composed into a message.
 * Messages name servers by their label (host, port, database or socket
 * path: never a credential), and quote a server's error text only through
 * redislock_reply_error_text(), which drops what could echo a command's
 * arguments. So no message depends on a password's value. */
zend_object *redislock_exceptions_throw(const redislock_error *e);

/* Throws a failure of kind code with a message that holds no secret. */
zend_object *redislock_exceptions_throwf(redislock_errcode code, const char *fmt, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);

/* run()'s release failed (why: cause) after $fn returned *result: throws
 * RedisLock\ReleaseException saying so, carrying the result (moved out of
 * *result, which is left null). */
void redislock_exceptions_throw_release(const char *cause, zval *result);

#endif /* REDISLOCK_EXCEPTIONS_H */
