/*
 * Pinning an operation to one node (redislock_route_pin()): through
 * Sentinel, the commands of one lock operation (a grant and the check of its
 * replication, a queue place and its claim, a release) all go to the master
 * found for the first of them. The Sentinels are not asked again in the
 * middle of an operation, and once a command may have run on the node, a
 * later one that the node turns away for another (READONLY, MASTERDOWN: not
 * the master any more; or no connection) is not sent on: its answer stands,
 * and the operation fails rather than check on one node what it did on
 * another. Before anything ran there, the operation goes where the next
 * look says.
 *
 * A cluster needs no pin: within an operation its commands go to the master
 * of their slot, which changes only by a MOVED or a failover the operation
 * itself met; the commands that must run together are sent together (the
 * replication check's token write and its WAIT, sent again as a pair), and
 * each script checks again where the key is now.
 */
#include "php_redislock.h"
#include "client/route_pin.h"
#include "config/topology.h"

#include <string.h>

/* srv's topology when srv is a Sentinel server under a pinned operation,
 * else NULL. */
static redislock_topology *pinned_topo(const redislock_server *srv)
{
    return srv->kind == REDISLOCK_SERVER_SENTINEL && srv->topo->pin_depth ? srv->topo : NULL;
}

/* Forgets the node topo's operation was pinned to. */
static void pin_drop(redislock_topology *topo)
{
    redislock_servers_node_free(topo->pin);
    topo->pin = NULL;
    topo->pin_ran = false;
}

void redislock_route_pin(const redislock_servers *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        if (list->server[i].kind == REDISLOCK_SERVER_SENTINEL) {
            list->server[i].topo->pin_depth++;
        }
    }
}

void redislock_route_pin_end(const redislock_servers *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        redislock_topology *topo = list->server[i].topo;
        if (list->server[i].kind == REDISLOCK_SERVER_SENTINEL && --topo->pin_depth == 0) {
            pin_drop(topo);
        }
    }
}

const redislock_server *redislock_route_pin_active(const redislock_server *srv)
{
    redislock_topology *topo = pinned_topo(srv);

    return topo ? topo->pin : NULL;
}

const redislock_server *redislock_route_pin_take(const redislock_server *srv, const redislock_server *node)
{
    redislock_topology *topo = pinned_topo(srv);

    if (!topo) {
        return node;
    }
    /* A copy of its own: a failover found meanwhile may free the one found. */
    topo->pin = redislock_servers_node(srv, node->host, strlen(node->host), node->port);
    return topo->pin;
}

void redislock_route_pin_ran(const redislock_server *srv)
{
    redislock_topology *topo = pinned_topo(srv);

    if (topo) {
        topo->pin_ran = true;
    }
}

bool redislock_route_pin_stays(const redislock_server *srv)
{
    redislock_topology *topo = pinned_topo(srv);

    if (!topo) {
        return false;
    }
    if (!topo->pin_ran) {
        pin_drop(topo);
        return false;
    }
    return true;
}
