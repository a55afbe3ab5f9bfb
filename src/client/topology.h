/*
 * Deployments behind one DSN that are more than one server: a master found
 * through Sentinels (redis-sentinel://) and a Redis Cluster
 * (redis-cluster://). The parsed DSN keeps the seed addresses; what was
 * found from them (the master, the slot map) is process state kept beside
 * them, replaced when a failover or a MOVED says it changed.
 *
 * redislock_route_exec() is the pool's way to such servers: each command is
 * sent to the node that should take it, and a command a failover turned
 * away without running it (READONLY, MASTERDOWN, the old master gone,
 * MOVED, ASK, TRYAGAIN, CLUSTERDOWN) is sent again where it now belongs,
 * within the operation's time.
 */
#ifndef REDISLOCK_TOPOLOGY_H
#define REDISLOCK_TOPOLOGY_H

#include "config/config.h"
#include "client/pool.h"

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
     * (redislock_route_pin.c). */
    uint32_t pin_depth;           /* operations under way (one may run inside another: a release in an acquire) */
    redislock_server *pin;        /* that node (a copy of its own: a failover may free the one found), or NULL */
    bool pin_ran;                 /* a command of the operation may have run there: the node may not change */
};

/* A server like tmpl (credentials, database, TLS settings), at host:port:
 * a node found through tmpl's seeds. Free with redislock_server_free(). */
redislock_server *redislock_server_node(const redislock_server *tmpl, const char *host, size_t hlen, int port);
void redislock_server_free(redislock_server *srv);

/* Finishes the seeds of a parsed Sentinel or Cluster DSN (credentials,
 * TLS settings, identity); frees a topology. */
void redislock_topology_finish(redislock_server *srv);
void redislock_topology_free(redislock_topology *topo);

/* Sentinel: the current master of srv, found before or asked now of the
 * Sentinels and checked with ROLE; NULL with the reason in err. */
const redislock_server *redislock_sentinel_master(const redislock_server *srv, const redislock_netopts *o, char *err,
                                                  size_t errlen);
/* Sentinel: forgets the master found (a failover): the next command asks
 * again, and the connections to it are closed. */
void redislock_sentinel_forget(const redislock_server *srv);

/* Cluster: the master that serves the slot of the command's first key, NULL
 * with the reason in err. */
const redislock_server *redislock_cluster_node(const redislock_server *srv, const redislock_cmd *cmd,
                                               const redislock_netopts *o, char *err, size_t errlen);
/* Cluster: the slot a command goes to, buf holding it in RESP (len
 * bytes): that of its first key; for a pipeline, that of the last of its
 * commands that has a key. -1: no key. */
int redislock_cluster_slot(const char *buf, size_t len);
/* Cluster: the node at host:port (of a MOVED or ASK), now serving slot
 * (MOVED: remembered; ask: for this command only). */
const redislock_server *redislock_cluster_moved(const redislock_server *srv, int slot, const char *addr, size_t len,
                                                bool remember);
/* Cluster: forgets the slot map (a failover, CLUSTERDOWN). */
void redislock_cluster_forget(const redislock_server *srv);

/* Sends one command (argc C strings, at most 4) to all seeds of srv at
 * once, encoded into buf; cmds gets the results (free with
 * redislock_cmds_dtor). Returns how many. */
uint32_t redislock_seeds_exec(const redislock_server *srv, int argc, const char **argv, redislock_cmd *cmds,
                              smart_str *buf, const redislock_netopts *o);

/* Forgets what srv's seeds said, whatever it is (nothing for a direct
 * server): a failover is suspected. */
void redislock_route_forget(const redislock_server *srv);

/* Runs commands of which some go to Sentinel or Cluster servers (see the
 * header comment); the others as redislock_pool_exec() would. */
void redislock_route_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts);

/* An operation's commands belong together (a grant and the check of its
 * replication, a queue place and its claim): between redislock_route_pin()
 * and redislock_route_unpin() on a lock's list, every command to one of its
 * Sentinel servers goes to one node (redislock_route_pin.c). The node is
 * chosen as ever by the first command, and may still change while nothing
 * has run there (the first command found the old master gone, READONLY);
 * once a command may have run on it, a later one that would have to go
 * elsewhere (READONLY, MASTERDOWN, no connection) fails with that answer
 * instead, and the Sentinels are not asked again before the operation
 * ends. Pins nest. A cluster's operations need none (see the file). */
void redislock_route_pin(const redislock_servers *list);
void redislock_route_unpin(const redislock_servers *list);

/* For the routing layer: the node srv's pinned operation goes to (NULL:
 * none yet, or no pinned operation); the node just found for it, pinned
 * (returns the node to send to: the pin's own copy); a command answered by
 * that node (it may have run there); and a command the node turned away or
 * that reached no node: whether the operation stays on its node (true: a
 * command of it ran there) or may go where the next look says (false; the
 * pin is dropped). */
const redislock_server *redislock_route_pinned(const redislock_server *srv);
const redislock_server *redislock_route_pin_take(const redislock_server *srv, const redislock_server *node);
void redislock_route_pin_ran(const redislock_server *srv);
bool redislock_route_pin_stays(const redislock_server *srv);

/* Whether any command of cmds goes to a Sentinel or Cluster server. */
bool redislock_route_needed(const redislock_cmd *cmds, size_t n);

#endif /* REDISLOCK_TOPOLOGY_H */
