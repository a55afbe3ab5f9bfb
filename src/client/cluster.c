/*
 * Redis Cluster (redis-cluster://): the slot map, from CLUSTER SLOTS asked
 * of the seed nodes at once (the first answer that reads wins), and the
 * node each command goes to: the master of the slot of the command's first
 * key (CRC16 of its hash tag, engine/keys.h). A MOVED updates the map,
 * an ASK names a node for one command; a failover or CLUSTERDOWN forgets
 * the map, which is read again for the next command (client/route.c).
 */
#include "php_redislock.h"
#include "client/cluster.h"
#include "client/seeds.h"
#include "config/topology.h"
#include "base/slot.h"

#include <string.h>

/* The index in topo->nodes of the node at host:port, added when new; -1
 * when the list is full. */
static int node_index(const redislock_server *srv, const char *host, size_t hlen, int port)
{
    redislock_topology *topo = srv->topo;

    for (uint32_t i = 0; i < topo->nnodes; i++) {
        const redislock_server *n = topo->nodes[i];
        if (n->port == port && strlen(n->host) == hlen && memcmp(n->host, host, hlen) == 0) {
            return (int) i;
        }
    }
    if (topo->nnodes == REDISLOCK_CLUSTER_NODES_MAX) {
        return -1;
    }
    topo->nodes = perealloc(topo->nodes, sizeof(*topo->nodes) * (topo->nnodes + 1), 1);
    topo->nodes[topo->nnodes] = redislock_servers_node(srv, host, hlen, port);
    return (int) topo->nnodes++;
}

/* Reads one range of a CLUSTER SLOTS reply into the map: [start, end,
 * [host, port, ...], replicas...]. asked: the seed that answered (its host
 * stands for an empty one). */
static bool read_range(const redislock_server *srv, const redisReply *r, const redislock_server *asked)
{
    const redisReply *m;
    const char *host;
    size_t hlen;
    int idx;

    if (r->type != REDIS_REPLY_ARRAY || r->elements < 3 || r->element[0]->type != REDIS_REPLY_INTEGER
        || r->element[1]->type != REDIS_REPLY_INTEGER || r->element[2]->type != REDIS_REPLY_ARRAY) {
        return false;
    }
    m = r->element[2];
    if (m->elements < 2 || m->element[0]->type != REDIS_REPLY_STRING || m->element[1]->type != REDIS_REPLY_INTEGER
        || m->element[1]->integer < 1 || m->element[1]->integer > 65535 || r->element[0]->integer < 0
        || r->element[1]->integer >= REDISLOCK_CLUSTER_SLOTS || r->element[0]->integer > r->element[1]->integer) {
        return false;
    }
    host = m->element[0]->len ? m->element[0]->str : asked->host;
    hlen = m->element[0]->len ? m->element[0]->len : strlen(asked->host);
    idx = node_index(srv, host, hlen, (int) m->element[1]->integer);
    if (idx < 0) {
        return false;
    }
    for (long long s = r->element[0]->integer; s <= r->element[1]->integer; s++) {
        srv->topo->slots[s] = (uint16_t) (idx + 1);
    }
    return true;
}

/* Builds the slot map from the first reply of cmds that reads whole. */
static bool read_map(const redislock_server *srv, const redislock_cmd *cmds, uint32_t n)
{
    redislock_topology *topo = srv->topo;

    for (uint32_t k = 0; k < n; k++) {
        const redisReply *r = cmds[k].reply;
        bool ok = cmds[k].status == REDISLOCK_CMD_OK && r->type == REDIS_REPLY_ARRAY && r->elements > 0;

        topo->slots = pecalloc(REDISLOCK_CLUSTER_SLOTS, sizeof(uint16_t), 1);
        for (size_t i = 0; ok && i < r->elements; i++) {
            ok = read_range(srv, r->element[i], cmds[k].srv);
        }
        if (ok) {
            return true;
        }
        pefree(topo->slots, 1);
        topo->slots = NULL;
    }
    return false;
}

/* Asks the seeds for the slot map. */
static int load_map(const redislock_server *srv, const redislock_netopts *o, char *err, size_t errlen)
{
    const char *argv[] = { "CLUSTER", "SLOTS" };
    redislock_cmd cmds[REDISLOCK_SEEDS_MAX];
    smart_str buf = { 0 };
    uint32_t n = redislock_seeds_exec(srv, 2, argv, cmds, &buf, o);
    int rc = REDISLOCK_OK;

    if (!read_map(srv, cmds, n)) {
        const char *why = "no slot map in its reply";
        for (uint32_t k = 0; k < n; k++) {
            if (cmds[k].status != REDISLOCK_CMD_OK) {
                why = cmds[k].errstr;
                break;
            }
        }
        snprintf(err, errlen, "no seed node of %s gave the slot map: %s", srv->label, why);
        rc = REDISLOCK_ERR;
    }
    redislock_cmd_dtor(cmds, n);
    smart_str_free(&buf);
    return rc;
}

/* Reads one bulk string of RESP at *p: its start and length. */
static bool next_bulk(const char **p, const char *end, const char **s, size_t *len)
{
    const char *q = *p;
    size_t n = 0;

    if (q >= end || *q++ != '$') {
        return false;
    }
    while (q < end && *q >= '0' && *q <= '9') {
        n = n * 10 + (size_t) (*q++ - '0');
    }
    if (end - q < 2 || (size_t) (end - q - 2) < n + 2) {
        return false;
    }
    *s = q + 2;
    *len = n;
    *p = q + 2 + n + 2;
    return true;
}

/* The key of one command (its arguments arg[0..argc), of which at most
 * the first 4 are read): the first key, or -1 when it has none (EVAL with
 * no keys, WAIT). */
static int command_key(const char **arg, const size_t *len, int argc)
{
    int want = (len[0] == 4 && strncasecmp(arg[0], "EVAL", 4) == 0)
                       || (len[0] == 7 && strncasecmp(arg[0], "EVALSHA", 7) == 0)
                   ? 3 : 1;

    if (want == 3 && (argc < 4 || (len[2] == 1 && arg[2][0] == '0'))) {
        return -1;
    }
    if (argc <= want || (len[0] == 4 && strncasecmp(arg[0], "WAIT", 4) == 0)
        || (len[0] == 6 && strncasecmp(arg[0], "ASKING", 6) == 0)) {
        return -1;
    }
    return want;
}

int redislock_cluster_slot(const char *buf, size_t len)
{
    const char *p = buf, *end = buf + len;
    int slot = -1;

    while (p < end && *p == '*') {
        const char *arg[4];
        size_t alen[4];
        int argc = 0, n = 0, key;

        for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
            n = n * 10 + (*p - '0');
        }
        p += 2; /* \r\n */
        for (int i = 0; i < n; i++) {
            const char *s;
            size_t l;
            if (!next_bulk(&p, end, &s, &l)) {
                return slot;
            }
            if (argc < 4) {
                arg[argc] = s;
                alen[argc++] = l;
            }
        }
        if (argc > 0 && (key = command_key(arg, alen, argc)) >= 0) {
            slot = redislock_slot_of(arg[key], alen[key]);
        }
    }
    return slot;
}

const redislock_server *redislock_cluster_node(const redislock_server *srv, const redislock_cmd *cmd,
                                               const redislock_netopts *o, char *err, size_t errlen)
{
    redislock_topology *topo = srv->topo;
    int slot;

    if (!topo->slots && load_map(srv, o, err, errlen) != REDISLOCK_OK) {
        return NULL;
    }
    slot = redislock_cluster_slot(cmd->buf, cmd->len);
    if (slot < 0) {
        return topo->nodes[0];
    }
    if (!topo->slots[slot]) {
        snprintf(err, errlen, "no node of %s serves slot %d", srv->label, slot);
        return NULL;
    }
    return topo->nodes[topo->slots[slot] - 1];
}

const redislock_server *redislock_cluster_moved(const redislock_server *srv, int slot, const char *addr, size_t len,
                                                bool remember)
{
    const char *colon = NULL;
    int port = 0, idx;

    for (size_t i = 0; i < len; i++) {
        if (addr[i] == ':') {
            colon = addr + i;
        }
    }
    if (!colon || colon == addr || colon + 1 == addr + len) {
        return NULL;
    }
    for (const char *q = colon + 1; q < addr + len; q++) {
        if (*q < '0' || *q > '9' || (port = port * 10 + (*q - '0')) > 65535) {
            return NULL;
        }
    }
    idx = node_index(srv, addr, (size_t) (colon - addr), port);
    if (idx < 0) {
        return NULL;
    }
    if (remember && srv->topo->slots) {
        srv->topo->slots[slot] = (uint16_t) (idx + 1);
    }
    return srv->topo->nodes[idx];
}

void redislock_cluster_forget(const redislock_server *srv)
{
    redislock_topology *topo = srv->topo;

    if (topo->slots) {
        pefree(topo->slots, 1);
        topo->slots = NULL;
    }
    for (uint32_t i = 0; i < topo->nnodes; i++) {
        redislock_servers_node_free(topo->nodes[i]);
    }
    topo->nnodes = 0;
}

bool redislock_cluster_any(const redislock_servers *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        if (list->server[i].kind == REDISLOCK_SERVER_CLUSTER) {
            return true;
        }
    }
    return false;
}
