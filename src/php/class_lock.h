/*
 * The PHP classes of the extension (redislock_class.c) as the module sees
 * them: registered in MINIT, told when a request ends.
 */
#ifndef REDISLOCK_CLASS_H
#define REDISLOCK_CLASS_H

#include "php.h"

/* Registers RedisLock, the interface RedisLock\Lock and the exceptions. */
void redislock_class_register(void);

/* At request end: every lock of the request that is still due a release
 * (see auto_release) gives up its token as a leftover, released with the
 * others in one go; the request's objects are forgotten. */
void redislock_class_request_end(void);

/* Fills out with the per-process counters (RedisLock::stats()). */
void redislock_stats_array(zval *out);

#endif /* REDISLOCK_CLASS_H */
