/*
 * Sentinel (redis-sentinel://): the master the Sentinels of a DSN name
 * (client/sentinel.c).
 */
#ifndef REDISLOCK_SENTINEL_H
#define REDISLOCK_SENTINEL_H

#include "client/cmd.h"

/* The current master of srv, found before or asked now of the Sentinels
 * and checked with ROLE; NULL with the reason in err. */
const redislock_server *redislock_sentinel_master(const redislock_server *srv, const redislock_netopts *o, char *err,
                                                  size_t errlen);
/* Forgets the master found (a failover): the next command asks again, and
 * the connections to it are closed. */
void redislock_sentinel_forget(const redislock_server *srv);

#endif /* REDISLOCK_SENTINEL_H */
