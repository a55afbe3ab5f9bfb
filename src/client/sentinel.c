/*
 * Sentinel (redis-sentinel://): the master of a name, as a majority of the
 * Sentinels of the DSN say (SENTINEL GET-MASTER-ADDR-BY-NAME, asked of all
 * of them at once), checked with ROLE on the node itself before any command
 * goes there: Sentinels that have not heard of a failover yet name a node
 * that is a replica now, and that answer is refused. The master found is kept for the process
 * and the Sentinels are asked again when a command says it moved (see
 * client/route.c), and in any case before a command once
 * REDISLOCK_SENTINEL_RECHECK_MS have passed: an old master that has not
 * been told of the failover yet still takes writes, which its replicas no
 * longer get. When the master changes, the connections to the old one are
 * closed. Sentinels that do not answer a recheck (fewer than a majority name
 * a master) leave the master as it was. The commands of one operation all go
 * to the master found for its first (redislock_route_pin()): the Sentinels
 * are not asked again in the middle of one.
 */
#include "php_redislock.h"
#include "client/sentinel.h"
#include "client/seeds.h"
#include "client/pool.h"
#include "config/topology.h"
#include "base/clock.h"
#include "base/resp.h"

#include <string.h>

#define REDISLOCK_SENTINEL_RECHECK_MS 1000

/* Encodes one command of argc C-string arguments into out. */
static void encode(smart_str *out, int argc, const char **argv)
{
    size_t lens[4];

    for (int i = 0; i < argc; i++) {
        lens[i] = strlen(argv[i]);
    }
    redislock_resp_encode(out, argc, argv, lens);
}

/* Whether node answers ROLE with "master"; else why not, in err. */
static bool is_master(const redislock_server *node, const redislock_server *srv, const redislock_netopts *o,
                      char *err, size_t errlen)
{
    const char *argv[] = { "ROLE" };
    smart_str buf = { 0 };
    redislock_cmd cmd = { .srv = node, .count = 1 };
    bool master = false;

    encode(&buf, 1, argv);
    cmd.buf = ZSTR_VAL(buf.s);
    cmd.len = ZSTR_LEN(buf.s);
    redislock_pool_exec(&cmd, 1, o);
    if (cmd.status != REDISLOCK_CMD_OK) {
        snprintf(err, errlen, "the Sentinels name %s as master of %s, but: %s", node->label, srv->topo->master,
                 cmd.errstr);
    } else if (cmd.reply->type == REDIS_REPLY_ARRAY && cmd.reply->elements > 0
               && cmd.reply->element[0]->type == REDIS_REPLY_STRING) {
        master = strcmp(cmd.reply->element[0]->str, "master") == 0;
        if (!master) {
            snprintf(err, errlen, "the Sentinels name %s as master of %s, but its role is %s (a failover under way?)",
                     node->label, srv->topo->master, cmd.reply->element[0]->str);
        }
    } else {
        snprintf(err, errlen, "%s did not answer ROLE as a Redis server does", node->label);
    }
    redislock_cmd_dtor(&cmd, 1);
    smart_str_free(&buf);
    return master;
}

/* The address in a GET-MASTER-ADDR-BY-NAME reply: host and port, or false. */
static bool master_addr(const redisReply *r, const char **host, size_t *hlen, int *port)
{
    long p;

    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[0]->type != REDIS_REPLY_STRING
        || r->element[1]->type != REDIS_REPLY_STRING || r->element[0]->len == 0) {
        return false;
    }
    p = strtol(r->element[1]->str, NULL, 10);
    if (p < 1 || p > 65535) {
        return false;
    }
    *host = r->element[0]->str;
    *hlen = r->element[0]->len;
    *port = (int) p;
    return true;
}

/* Whether the k-th and the j-th answer name the same address. */
static bool same_addr(const redislock_cmd *cmds, uint32_t k, uint32_t j)
{
    const redisReply *a = cmds[k].reply, *b = cmds[j].reply;
    const char *ha, *hb;
    size_t la, lb;
    int pa, pb;

    return master_addr(a, &ha, &la, &pa) && master_addr(b, &hb, &lb, &pb) && pa == pb && la == lb
           && memcmp(ha, hb, la) == 0;
}

/* The master a majority of the n Sentinels of the DSN name (the one known
 * already, or a new one that says so with ROLE), or NULL with why in err.
 * One Sentinel that lies (an address of another deployment, a replica, a
 * stale answer) cannot choose the node alone: the same address must come
 * from more than half of them, as a failover needs their majority too.
 * *answered: whether a majority answered at all (when not, the master found
 * before stands). */
static redislock_server *pick(const redislock_server *srv, redislock_cmd *cmds, uint32_t n,
                              const redislock_netopts *o, bool *answered, char *err, size_t errlen)
{
    const redislock_server *known = srv->topo->node;
    uint32_t need = n / 2 + 1, named = 0, best = 0, votes = 0;
    const char *host;
    size_t hlen;
    int port;
    redislock_server *node;

    for (uint32_t k = 0; k < n; k++) {
        uint32_t same = 0;
        if (cmds[k].status != REDISLOCK_CMD_OK || !master_addr(cmds[k].reply, &host, &hlen, &port)) {
            continue;
        }
        named++;
        for (uint32_t j = 0; j < n; j++) {
            same += cmds[j].status == REDISLOCK_CMD_OK && same_addr(cmds, k, j);
        }
        if (same > votes) {
            votes = same;
            best = k;
        }
    }
    *answered = named >= need;
    if (votes < need) {
        const char *why = "they do not know it";
        for (uint32_t k = 0; k < n && named == 0; k++) {
            if (cmds[k].status != REDISLOCK_CMD_OK) {
                why = cmds[k].errstr;
                break;
            }
        }
        if (named == 0) {
            snprintf(err, errlen, "no Sentinel named a master for %s: %s", srv->topo->master, why);
        } else {
            snprintf(err, errlen, "no master for %s named by a majority of the Sentinels (%u of %u named one, "
                     "at most %u the same, %u needed)", srv->topo->master, named, n, votes, need);
        }
        return NULL;
    }
    master_addr(cmds[best].reply, &host, &hlen, &port);
    if (known && known->port == port && strlen(known->host) == hlen && memcmp(known->host, host, hlen) == 0) {
        return srv->topo->node;
    }
    node = redislock_servers_node(srv, host, hlen, port);
    if (is_master(node, srv, o, err, errlen)) {
        return node;
    }
    redislock_servers_node_free(node);
    return NULL;
}

/* Asks the Sentinels (all at once) for the master: see pick(). */
static redislock_server *ask(const redislock_server *srv, const redislock_netopts *o, bool *answered, char *err,
                             size_t errlen)
{
    const char *argv[] = { "SENTINEL", "get-master-addr-by-name", srv->topo->master };
    redislock_cmd cmds[REDISLOCK_SEEDS_MAX];
    smart_str buf = { 0 };
    uint32_t n = redislock_seeds_exec(srv, 3, argv, cmds, &buf, o);
    redislock_server *node;

    node = pick(srv, cmds, n, o, answered, err, errlen);
    redislock_cmd_dtor(cmds, n);
    smart_str_free(&buf);
    return node;
}

const redislock_server *redislock_sentinel_master(const redislock_server *srv, const redislock_netopts *o, char *err,
                                                  size_t errlen)
{
    redislock_topology *topo = srv->topo;
    uint64_t now = redislock_now_us();
    redislock_server *node;
    bool answered;

    if (topo->node && now < topo->checked + REDISLOCK_SENTINEL_RECHECK_MS * 1000) {
        return topo->node;
    }
    node = ask(srv, o, &answered, err, errlen);
    topo->checked = now;
    if (node == topo->node || (!node && topo->node && !answered)) {
        return topo->node; /* unchanged, or no Sentinel to say otherwise */
    }
    redislock_sentinel_forget(srv);
    topo->node = node;
    topo->checked = now;
    return node;
}

void redislock_sentinel_forget(const redislock_server *srv)
{
    redislock_topology *topo = srv->topo;

    if (topo->node) {
        redislock_pool_forget(topo->node);
        redislock_servers_node_free(topo->node);
        topo->node = NULL;
    }
}
