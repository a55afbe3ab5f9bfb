/*
 * Deployments behind one DSN that are more than one server: a master found
 * through Sentinels (redis-sentinel://) and a Redis Cluster
 * (redis-cluster://). The parsed DSN keeps the seed addresses; what was
 * found from them (the master, the slot map) is process state kept beside
 * them, replaced when a failover or a MOVED says it changed.
 *
 * The parsed part is made by config/dsn.c and config/servers.c (which also
 * define the functions below); the process state is the client's: the
 * seeds are asked by client/seeds.c, the master by client/sentinel.c, the
 * slot map by client/cluster.c; each command is sent to the node that
 * should take it by client/route.c (pins: client/route_pin.c). This file
 * is data only.
 */
#ifndef REDISLOCK_TOPOLOGY_H
#define REDISLOCK_TOPOLOGY_H

#include "config/servers.h"

#define REDISLOCK_SEEDS_MAX 16       /* Sentinels, or a cluster's seed nodes, in one DSN */
#define REDISLOCK_SENTINEL_PORT 26379
#define REDISLOCK_CLUSTER_SLOTS 16384
#define REDISLOCK_CLUSTER_NODES_MAX 256

struct redislock_topology {
    uint32_t nseeds;
    redislock_server seeds[REDISLOCK_SEEDS_MAX]; /* addresses, each with the credentials and TLS it takes */
    char *master;                 /* Sentinel: the master's name */
    char *sentinel_password;      /* Sentinel: AUTH for the Sentinels, or NULL */
    size_t sentinel_password_len;

    /* Process state: what the seeds said. */
    redislock_server *node;       /* Sentinel: the master found last, NULL until asked */
    uint64_t checked;             /* Sentinel: when the Sentinels were last asked (monotonic us) */
    redislock_server **nodes;     /* Cluster: the masters of the slot map */
    uint32_t nnodes;
    uint16_t *slots;              /* Cluster: per slot, 1 + its node's index in nodes; 0 not known */

    /* Sentinel: the node the commands of the operations under way go to
     * (client/route_pin.c). */
    uint32_t pin_depth;           /* operations under way (one may run inside another: a release in an acquire) */
    redislock_server *pin;        /* that node (a copy of its own: a failover may free the one found), or NULL */
    bool pin_ran;                 /* a command of the operation may have run there: the node may not change */
};

/* A server like tmpl (credentials, database, TLS settings), at host:port:
 * a node found through tmpl's seeds. Free with redislock_servers_node_free(). */
redislock_server *redislock_servers_node(const redislock_server *tmpl, const char *host, size_t hlen, int port);
void redislock_servers_node_free(redislock_server *srv);

/* Finishes the seeds of a parsed Sentinel or Cluster DSN (credentials,
 * TLS settings, identity); frees a topology. */
void redislock_servers_topology_finish(redislock_server *srv);
void redislock_servers_topology_free(redislock_topology *topo);

#endif /* REDISLOCK_TOPOLOGY_H */
