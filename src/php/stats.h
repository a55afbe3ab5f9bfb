/*
 * The per-process counters (redislock_stats, in the module's globals) by
 * name: for RedisLock::stats() and for phpinfo().
 */
#ifndef REDISLOCK_STATS_H
#define REDISLOCK_STATS_H

#include "php.h"

/* Fills out with the counters, name => value (RedisLock::stats()). */
void redislock_stats_array(zval *out);

/* phpinfo(): a table of the counters. */
void redislock_stats_minfo(void);

#endif /* REDISLOCK_STATS_H */
