/*
 * Routing commands to Sentinel and Cluster servers: each goes to the node
 * that takes it now, and one turned away without running is sent again
 * where it now belongs, within the operation's time (client/route.c).
 */
#ifndef REDISLOCK_ROUTE_H
#define REDISLOCK_ROUTE_H

#include "client/cmd.h"

/* Runs commands of which some go to Sentinel or Cluster servers (see the
 * file); the others as redislock_pool_exec() would. */
void redislock_route_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts);

/* Forgets what srv's seeds said, whatever it is (nothing for a direct
 * server): a failover is suspected. */
void redislock_route_forget(const redislock_server *srv);

#endif /* REDISLOCK_ROUTE_H */
