/*
 * Routing commands to Sentinel and Cluster servers: each command goes to
 * the node that takes it now (the master the Sentinels name, the master of
 * its key's slot), and a command that was turned away without running is
 * sent again where it now belongs, at most ROUTE_PASSES times and never
 * past the operation's deadline:
 *
 *   nothing sent (the old master is gone)   forget what was found, ask again
 *   -READONLY, -MASTERDOWN                  the same (a failover)
 *   -MOVED slot host:port                   remember the slot's new master
 *   -ASK slot host:port                     once to that node, after ASKING
 *   -TRYAGAIN, -CLUSTERDOWN                 a short pause, then again
 *
 * A command whose outcome is unknown (the connection broke after it was
 * sent, no reply in time) is never sent again: what was found is forgotten,
 * and the caller gets the failure as from one server.
 *
 * Within an operation (redislock_route_pin()), the node is chosen once: a
 * command that would have to go elsewhere after one of the operation's ran
 * there fails with the answer that said so (see pin_settle()).
 */
#include "php_redislock.h"
#include "redislock_topology.h"
#include "redislock_conn.h"
#include "redislock_reply.h"

#include <string.h>
#include <unistd.h>

#define ROUTE_PASSES 4          /* sends of one command, at most */
#define ROUTE_PAUSE_US 20000    /* before sending again after TRYAGAIN or CLUSTERDOWN */

static const char asking[] = "*1\r\n$6\r\nASKING\r\n";

typedef enum {
    ROUTE_DONE,   /* the outcome stands */
    ROUTE_AGAIN,  /* not run: send again where it now belongs */
} route_verdict;

uint32_t redislock_seeds_exec(const redislock_server *srv, int argc, const char **argv, redislock_cmd *cmds,
                              smart_str *buf, const redislock_netopts *o)
{
    const redislock_topology *topo = srv->topo;
    uint32_t n = MIN(topo->nseeds, REDISLOCK_MAX_SERVERS);
    size_t lens[4];

    ZEND_ASSERT(argc <= 4);
    for (int i = 0; i < argc; i++) {
        lens[i] = strlen(argv[i]);
    }
    redislock_encode(buf, argc, argv, lens);
    memset(cmds, 0, sizeof(redislock_cmd) * n);
    for (uint32_t k = 0; k < n; k++) {
        cmds[k].srv = &topo->seeds[k];
        cmds[k].buf = ZSTR_VAL(buf->s);
        cmds[k].len = ZSTR_LEN(buf->s);
        cmds[k].count = 1;
        cmds[k].idx = k;
    }
    redislock_pool_exec_direct(cmds, n, o);
    return n;
}

bool redislock_route_needed(const redislock_cmd *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].srv->kind != REDISLOCK_SERVER_DIRECT) {
            return true;
        }
    }
    return false;
}

void redislock_route_forget(const redislock_server *srv)
{
    if (srv->kind == REDISLOCK_SERVER_SENTINEL) {
        redislock_sentinel_forget(srv);
    } else if (srv->kind == REDISLOCK_SERVER_CLUSTER) {
        redislock_cluster_forget(srv);
    }
}

/* Whether the error reply r starts with the word w. */
static bool error_is(const redisReply *r, const char *w)
{
    size_t n = strlen(w);

    return r && r->type == REDIS_REPLY_ERROR && r->len >= n && memcmp(r->str, w, n) == 0
        && (r->len == n || r->str[n] == ' ');
}

/* Reads "MOVED slot host:port" / "ASK slot host:port": the node it names
 * (remembered for the slot when remember), or NULL. */
static const redislock_server *redirect(const redislock_server *srv, const redisReply *r, bool remember)
{
    const char *p = memchr(r->str, ' ', r->len), *end = r->str + r->len, *addr;
    int slot = 0;

    if (!p) {
        return NULL;
    }
    for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
        slot = slot * 10 + (*p - '0');
        if (slot >= REDISLOCK_CLUSTER_SLOTS) {
            return NULL;
        }
    }
    if (p >= end || *p != ' ') {
        return NULL;
    }
    addr = p + 1;
    return redislock_cluster_moved(srv, slot, addr, (size_t) (end - addr), remember);
}

/* What a routed command's outcome says about where it belongs; *ask is set
 * to the node an ASK names. */
static route_verdict judge(redislock_cmd *cmd, const redislock_server *srv, const redislock_server **ask)
{
    const redisReply *r = cmd->reply;

    *ask = NULL;
    if (cmd->status == REDISLOCK_CMD_CONNECT) {
        redislock_route_forget(srv);
        return ROUTE_AGAIN;
    }
    if (cmd->status == REDISLOCK_CMD_LOST || cmd->status == REDISLOCK_CMD_TIMEOUT) {
        redislock_route_forget(srv);
        return ROUTE_DONE;
    }
    if (cmd->status != REDISLOCK_CMD_ERROR) {
        return ROUTE_DONE;
    }
    if (error_is(r, "READONLY") || error_is(r, "MASTERDOWN")) {
        redislock_route_forget(srv);
        return ROUTE_AGAIN;
    }
    if (srv->kind != REDISLOCK_SERVER_CLUSTER) {
        return ROUTE_DONE;
    }
    if (error_is(r, "MOVED")) {
        return redirect(srv, r, true) ? ROUTE_AGAIN : ROUTE_DONE;
    }
    if (error_is(r, "ASK")) {
        *ask = redirect(srv, r, false);
        return *ask ? ROUTE_AGAIN : ROUTE_DONE;
    }
    if (error_is(r, "TRYAGAIN") || error_is(r, "CLUSTERDOWN")) {
        if (error_is(r, "CLUSTERDOWN")) {
            redislock_route_forget(srv);
        }
        usleep(ROUTE_PAUSE_US);
        return ROUTE_AGAIN;
    }
    return ROUTE_DONE;
}

/* Pinning (at the end of the file). */
static const redislock_server *pin_node(const redislock_server *srv);
static const redislock_server *pin_take(const redislock_server *srv, const redislock_server *node);
static route_verdict pin_settle(const redislock_cmd *cmd, const redislock_server *srv, route_verdict v,
                                const redislock_server **ask, bool asked);

/* The node cmd goes to now: a direct server itself, else what the seeds of
 * srv say, or the node the operation under way is pinned to (NULL, with cmd failed, when they cannot say). */
static const redislock_server *route(redislock_cmd *cmd, const redislock_server *srv, const redislock_netopts *o)
{
    const redislock_server *node = pin_node(srv);
    char err[REDISLOCK_ERRLEN];

    if (node) {
        return node;
    }
    node = srv;
    if (srv->kind == REDISLOCK_SERVER_SENTINEL) {
        node = redislock_sentinel_master(srv, o, err, sizeof(err));
    } else if (srv->kind == REDISLOCK_SERVER_CLUSTER) {
        node = redislock_cluster_node(srv, cmd, o, err, sizeof(err));
    }
    if (!node) {
        cmd->status = REDISLOCK_CMD_CONNECT;
        snprintf(cmd->errstr, sizeof(cmd->errstr), "%s", err);
        return NULL;
    }
    return pin_take(srv, node);
}

/* Puts ASKING before the command (one write: the node takes the command
 * after it), in buf. */
static void ask_prepare(redislock_cmd *run, smart_str *buf)
{
    smart_str_appendl(buf, asking, sizeof(asking) - 1);
    smart_str_appendl(buf, run->buf, run->len);
    run->buf = ZSTR_VAL(buf->s);
    run->len = ZSTR_LEN(buf->s);
    run->count++;
}

/* Takes ASKING's reply back out, so the command's replies are where the
 * caller looks for them (nothing to take when the new connection's
 * handshake failed: then the replies read are the handshake's). */
static void ask_finish(redislock_cmd *run, const char *buf, size_t len)
{
    run->buf = buf;
    run->len = len;
    run->count--;
    if (run->in_hello) {
        return;
    }
    run->expect = run->count;
    if (run->got > 0) {
        freeReplyObject(run->early[0]);
        memmove(run->early, run->early + 1, sizeof(run->early[0]) * (REDISLOCK_PIPELINE_MAX - 2));
        run->got--;
    }
}

/* One pass: sends the pending commands to their nodes at once; those to
 * send again stay pending. */
static void route_pass(redislock_cmd *cmds, size_t n, const redislock_netopts *o, bool *pending,
                       const redislock_server **ask, bool last)
{
    redislock_cmd run[REDISLOCK_MAX_SERVERS];
    size_t idx[REDISLOCK_MAX_SERVERS], m = 0;
    smart_str bufs[REDISLOCK_MAX_SERVERS];

    memset(bufs, 0, sizeof(bufs));
    for (size_t i = 0; i < n; i++) {
        const redislock_server *node;
        if (!pending[i]) {
            continue;
        }
        pending[i] = false;
        if (ask[i] && cmds[i].count >= REDISLOCK_PIPELINE_MAX) {
            ask[i] = NULL; /* no room for ASKING: the slot's master answers again */
        }
        node = ask[i] ? ask[i] : route(&cmds[i], cmds[i].srv, o);
        if (node) {
            run[m] = cmds[i];
            run[m].srv = node;
            if (ask[i]) {
                ask_prepare(&run[m], &bufs[m]);
            }
            idx[m++] = i;
        }
    }
    if (m > 0) {
        redislock_pool_exec_direct(run, m, o);
    }
    for (size_t k = 0; k < m; k++) {
        size_t i = idx[k];
        const redislock_server *srv = cmds[i].srv;
        if (ask[i]) {
            ask_finish(&run[k], cmds[i].buf, cmds[i].len);
            smart_str_free(&bufs[k]);
        }
        cmds[i] = run[k];
        cmds[i].srv = srv;
        bool asked = ask[i] != NULL;
        if (srv->kind != REDISLOCK_SERVER_DIRECT
            && pin_settle(&cmds[i], srv, judge(&cmds[i], srv, &ask[i]), &ask[i], asked) == ROUTE_AGAIN && !last
            && (!o->deadline || redislock_now_us() < o->deadline)) {
            redislock_cmds_dtor(&cmds[i], 1);
            pending[i] = true;
        }
    }
}

void redislock_route_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts)
{
    bool pending[REDISLOCK_MAX_SERVERS];
    const redislock_server *ask[REDISLOCK_MAX_SERVERS] = { NULL };
    /* Routed commands run in passes over copies of the caller's: a round
     * that may end early (opts->enough) watches the caller's, so through
     * the routing layer it waits for every answer. */
    redislock_netopts whole = *opts;

    whole.enough = NULL;
    opts = &whole;

    ZEND_ASSERT(n <= REDISLOCK_MAX_SERVERS);
    for (size_t i = 0; i < n; i++) {
        pending[i] = true;
        cmds[i].reply = NULL;
        cmds[i].got = 0;
        cmds[i].expect = 1;
        cmds[i].in_hello = false;
        cmds[i].conn = NULL;
        cmds[i].phase = PHASE_IDLE;
        cmds[i].status = REDISLOCK_CMD_OK;
        cmds[i].errstr[0] = '\0';
    }
    for (int pass = 0; pass < ROUTE_PASSES; pass++) {
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            any = any || pending[i];
        }
        if (!any) {
            break;
        }
        route_pass(cmds, n, opts, pending, ask, pass + 1 == ROUTE_PASSES);
    }
}

/* {{{ Pinning an operation to one node (redislock_route_pin()) */

void redislock_route_pin(const redislock_servers *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        if (list->server[i].kind != REDISLOCK_SERVER_DIRECT) {
            list->server[i].topo->pin_depth++;
        }
    }
}

void redislock_route_unpin(const redislock_servers *list)
{
    for (uint32_t i = 0; i < list->count; i++) {
        redislock_topology *topo = list->server[i].topo;
        if (list->server[i].kind == REDISLOCK_SERVER_DIRECT || --topo->pin_depth > 0) {
            continue;
        }
        redislock_server_free(topo->pin);
        topo->pin = NULL;
        topo->pin_ran = false;
    }
}

/* The node the operation under way on srv was pinned to, or NULL (none
 * yet, or no operation). */
static const redislock_server *pin_node(const redislock_server *srv)
{
    return srv->kind != REDISLOCK_SERVER_DIRECT && srv->topo->pin_depth ? srv->topo->pin : NULL;
}

/* Pins the operation under way on srv, if any, to the node just found;
 * returns the node to send to (the pin's copy). */
static const redislock_server *pin_take(const redislock_server *srv, const redislock_server *node)
{
    redislock_topology *topo = srv->topo;

    if (srv->kind == REDISLOCK_SERVER_DIRECT || !topo->pin_depth) {
        return node;
    }
    topo->pin = redislock_server_node(srv, node->host, strlen(node->host), node->port);
    return topo->pin;
}

/* What a command's outcome (judged v; asked: it went to the node an ASK
 * named) means for a pinned operation: once a command may have run on the
 * node, the node stays for the rest of the operation. A later command the
 * node turns away for another (READONLY, MASTERDOWN: not the master any
 * more; MOVED, ASK: the key or its slot went) is not sent there: its answer
 * stands, and the operation fails rather than check on one node what it did
 * on another. Before anything ran, the operation goes where the command
 * goes. Sent again to the same node: after TRYAGAIN, CLUSTERDOWN, or a
 * connection that could not be made. A command sent on by ASK (a slot in
 * migration, whose keys all go to the importing node one command at a time)
 * leaves the pin as it was. */
static route_verdict pin_settle(const redislock_cmd *cmd, const redislock_server *srv, route_verdict v,
                                const redislock_server **ask, bool asked)
{
    redislock_topology *topo = srv->topo;
    const redisReply *r = cmd->reply;
    bool moved;

    if (!topo->pin_depth) {
        return v;
    }
    if (v == ROUTE_DONE) {
        topo->pin_ran = topo->pin_ran || (!asked && cmd->status != REDISLOCK_CMD_CONNECT);
        return v;
    }
    moved = cmd->status == REDISLOCK_CMD_CONNECT || error_is(r, "READONLY") || error_is(r, "MASTERDOWN")
            || error_is(r, "MOVED");
    if (!*ask && !moved) {
        return v;
    }
    if (!topo->pin_ran) {
        if (moved) {
            redislock_server_free(topo->pin);
            topo->pin = NULL;
        }
        return v;
    }
    if (cmd->status == REDISLOCK_CMD_CONNECT) {
        return v;
    }
    *ask = NULL;
    return ROUTE_DONE;
}

/* }}} */
