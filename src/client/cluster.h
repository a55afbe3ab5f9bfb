/*
 * Redis Cluster (redis-cluster://): the slot map and the node each command
 * goes to (client/cluster.c).
 */
#ifndef REDISLOCK_CLUSTER_H
#define REDISLOCK_CLUSTER_H

#include "client/cmd.h"

/* The master that serves the slot of the command's first key, NULL with the
 * reason in err. */
const redislock_server *redislock_cluster_node(const redislock_server *srv, const redislock_cmd *cmd,
                                               const redislock_netopts *o, char *err, size_t errlen);
/* The slot a command goes to, buf holding it in RESP (len bytes): that of
 * its first key; for a pipeline, that of the last of its commands that has a
 * key. -1: no key. */
int redislock_cluster_slot(const char *buf, size_t len);
/* The node at host:port (of a MOVED or ASK), now serving slot (MOVED:
 * remembered; ask: for this command only). */
const redislock_server *redislock_cluster_moved(const redislock_server *srv, int slot, const char *addr, size_t len,
                                                bool remember);
/* Forgets the slot map (a failover, CLUSTERDOWN). */
void redislock_cluster_forget(const redislock_server *srv);
/* Whether any server of the list is a cluster. */
bool redislock_cluster_any(const redislock_servers *list);

#endif /* REDISLOCK_CLUSTER_H */
