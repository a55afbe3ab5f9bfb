/*
 * Routing commands to Sentinel and Cluster servers: each command goes to
 * the node that takes it now (the master the Sentinels name, the master of
 * its key's slot), and a command that was turned away without running is
 * sent again where it now belongs, never past the operation's deadline:
 *
 *   nothing sent (the old master is gone)   forget what was found, ask again
 *   -READONLY, -MASTERDOWN                  the same (a failover)
 *   -MOVED slot host:port                   remember the slot's new master
 *   -ASK slot host:port                     to that node, after ASKING
 *   -TRYAGAIN, -CLUSTERDOWN                 a pause, then again (the map is
 *                                           read again after CLUSTERDOWN)
 *
 * A failover (the first two) is followed at most ROUTE_FAILOVER_SENDS
 * times; a redirect or a TRYAGAIN (a slot being migrated) until the
 * operation's deadline (its own, else read_timeout after it began), with a
 * pause that grows from ROUTE_PAUSE_MIN_US to ROUTE_PAUSE_MAX_US before
 * each TRYAGAIN, CLUSTERDOWN or redirect after the second: a migration
 * costs the caller its length, not an error.
 *
 * Each command of a pipeline is judged by its own reply, as the node took
 * each on its own: those it ran keep their replies, those it turned away are
 * sent again, in their order, as a pipeline of their own (on a cluster,
 * those of one slot at a time), each after its own ASKING when an ASK
 * names the node. A command that needs no key (WAIT, on a cluster) belongs
 * to the node of the keyed command before it: it is sent again with that
 * one (on a Sentinel master, every command after one turned away is). So
 * the leftover releases that ride ahead of a command can never make it fail.
 * A blocking pop (BLPOP) turned away is not sent again: it is answered as
 * a wait that ended with nothing popped, which is what happened to the
 * list, and the commands after it go on to where they belong (sent again,
 * it would block anew for its whole timeout, past the operation's time).
 *
 * A command whose outcome is unknown (the connection broke after it was
 * sent, no reply in time) is never sent again: what was found is forgotten,
 * and the caller gets the failure as from one server. The replies to the
 * commands of a pipeline are where the caller looks for them
 * (redislock_cmd_reply()); one that did not come is NULL there, and the
 * command's status and errstr describe the last command, as for one
 * server.
 *
 * Within an operation, the node of a Sentinel server is chosen once: a
 * command that would have to go elsewhere after another of the operation's
 * ran there (READONLY, MASTERDOWN) fails with the answer that said so
 * (client/route_pin.c).
 */
#include "php_redislock.h"
#include "client/route.h"
#include "client/route_pin.h"
#include "client/sentinel.h"
#include "client/cluster.h"
#include "client/pool.h"
#include "config/topology.h"
#include "base/clock.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define ROUTE_FAILOVER_SENDS 4     /* sends of one command after a failover, at most */
#define ROUTE_PAUSE_MIN_US 5000    /* the first pause before sending again after TRYAGAIN, */
#define ROUTE_PAUSE_MAX_US 100000  /* doubling up to this */
#define ROUTE_REDIRECTS_FREE 2     /* MOVED/ASK followed at once this many times, then after a pause */
#define ROUTE_PASSES_MAX 256       /* passes of one exchange, whatever the deadline */

static const char asking[] = "*1\r\n$6\r\nASKING\r\n";

#define BIT(k) ((uint32_t) 1 << (k))

/* What a reply says about where its command belongs. */
typedef enum {
    ROUTE_DONE,     /* the command ran (or will never run): the reply stands */
    ROUTE_FAILOVER, /* not run: the master changed (what was found is forgotten) */
    ROUTE_MOVED,    /* not run: the slot's master is another (remembered) */
    ROUTE_ASK,      /* not run: ask the node the reply names */
    ROUTE_WAIT,     /* not run: try again after a pause (TRYAGAIN, CLUSTERDOWN) */
} route_verdict;

/* One routed command (maybe a pipeline) on its way. */
typedef struct route_state {
    const char *at[REDISLOCK_PIPELINE_MAX + 1]; /* where each command of the caller's buf starts; at[count]: the end */
    int slot[REDISLOCK_PIPELINE_MAX];  /* Cluster: each command's slot (-1: it has no key) */
    uint32_t blocking;                 /* the commands that block on the server (bit k) */
    redisReply *reply[REDISLOCK_PIPELINE_MAX]; /* the replies that stand (NULL: none) */
    uint32_t pending;                  /* commands still to send (bit k: command k) */
    uint32_t sent;                     /* the commands of the pass under way */
    const redislock_server *ask;       /* the node an ASK named: the next pass goes there */
    int failovers;                     /* sends that met a failover (or reached no node) */
    int redirects;                     /* MOVED and ASK replies so far */
    bool pause;                        /* the next pass waits first */
    bool whole;                        /* a direct server's: sent once, as given */
    int status;                        /* the last command's outcome */
    char errstr[REDISLOCK_ERRLEN];
    smart_str buf;                     /* the pass's commands */
} route_state;

/* When the routing of one exchange ends, and the pause to come. */
typedef struct route_clock {
    uint64_t until;  /* monotonic us: nothing is sent again after this */
    uint64_t pause;  /* us, the next pause */
    bool last;       /* the last pass: whatever is answered stands */
} route_clock;

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

/* The node cmd goes to now: a direct server itself, else what the seeds of
 * srv say, or the node the operation under way is pinned to (NULL, with cmd failed, when they cannot say). */
static const redislock_server *route(redislock_cmd *cmd, const redislock_server *srv, const redislock_netopts *o)
{
    const redislock_server *node = redislock_route_pin_active(srv);
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
    return redislock_route_pin_take(srv, node);
}

/* Where the RESP command at p ends (its array of bulk strings), or NULL
 * when it is not one. */
static const char *command_end(const char *p, const char *end)
{
    size_t n = 0;

    if (p >= end || *p++ != '*') {
        return NULL;
    }
    while (p < end && *p >= '0' && *p <= '9') {
        n = n * 10 + (size_t) (*p++ - '0');
    }
    for (p += 2; n > 0 && p < end; n--) {
        size_t len = 0;
        if (*p++ != '$') {
            return NULL;
        }
        while (p < end && *p >= '0' && *p <= '9') {
            len = len * 10 + (size_t) (*p++ - '0');
        }
        if ((size_t) (end - p) < len + 4) {
            return NULL;
        }
        p += 2 + len + 2;
    }
    return n == 0 && p <= end ? p : NULL;
}

/* Whether the RESP command at p (len bytes) is a blocking pop. */
static bool command_blocks(const char *p, size_t len)
{
    static const char blpop[] = "*3\r\n$5\r\nBLPOP\r\n", blpop2[] = "*4\r\n$5\r\nBLPOP\r\n";
    size_t n = sizeof(blpop) - 1;

    return len > n && (strncasecmp(p, blpop, n) == 0 || strncasecmp(p, blpop2, n) == 0);
}

/* Readies the state of a command: its commands found in its buf (and on a
 * cluster, their slots), all of them to send. false when buf is not as
 * many commands as it says (never, for buffers of redislock_resp_encode()). */
static bool state_init(route_state *st, const redislock_cmd *cmd)
{
    const char *p = cmd->buf, *end = cmd->buf + cmd->len;

    memset(st, 0, offsetof(route_state, buf));
    memset(&st->buf, 0, sizeof(st->buf));
    st->status = REDISLOCK_CMD_CONNECT;
    st->whole = cmd->srv->kind == REDISLOCK_SERVER_DIRECT;
    st->pending = cmd->count >= 32 ? UINT32_MAX : BIT(cmd->count) - 1;
    if (st->whole) {
        return true;
    }
    for (int k = 0; k < cmd->count; k++) {
        st->at[k] = p;
        if (!(p = command_end(p, end))) {
            return false;
        }
        st->slot[k] = cmd->srv->kind == REDISLOCK_SERVER_CLUSTER
                          ? redislock_cluster_slot(st->at[k], (size_t) (p - st->at[k])) : -1;
        st->blocking |= command_blocks(st->at[k], (size_t) (p - st->at[k])) ? BIT(k) : 0;
    }
    st->at[cmd->count] = p;
    return p == end;
}

/* Whether command k goes with the keyed command before it (see the top). */
static bool follower(const route_state *st, const redislock_cmd *cmd, int k)
{
    return cmd->srv->kind != REDISLOCK_SERVER_CLUSTER || st->slot[k] < 0;
}

/* Chooses the commands of this pass and writes them into st->buf: the
 * pending ones; on a cluster, not after an ASK, those of the slot of the
 * first pending command that has a key (and those that go with them);
 * after an ASK, each after ASKING. Returns how many commands the write
 * holds. */
static int pass_commands(route_state *st, const redislock_cmd *cmd)
{
    int slot = -1, n = 0, per = st->ask ? 2 : 1;
    bool with = true; /* the keyed command before is in this pass */

    smart_str_free(&st->buf);
    st->sent = 0;
    for (int k = 0; k < cmd->count && !st->ask && slot < 0; k++) {
        if ((st->pending & BIT(k)) && !follower(st, cmd, k)) {
            slot = st->slot[k];
        }
    }
    for (int k = 0; k < cmd->count && n + per <= REDISLOCK_PIPELINE_MAX; k++) {
        if (!follower(st, cmd, k)) {
            with = slot < 0 || st->slot[k] == slot;
        }
        if (!(st->pending & BIT(k)) || !with) {
            continue;
        }
        if (st->ask) {
            smart_str_appendl(&st->buf, asking, sizeof(asking) - 1);
        }
        smart_str_appendl(&st->buf, st->at[k], (size_t) (st->at[k + 1] - st->at[k]));
        st->sent |= BIT(k);
        n += per;
    }
    return n;
}

/* What reply r of a command sent to srv's node says. */
static route_verdict judge(const redisReply *r, const redislock_server *srv, const redislock_server **ask)
{
    if (r->type != REDIS_REPLY_ERROR) {
        return ROUTE_DONE;
    }
    if (error_is(r, "READONLY") || error_is(r, "MASTERDOWN")) {
        redislock_route_forget(srv);
        return ROUTE_FAILOVER;
    }
    if (srv->kind != REDISLOCK_SERVER_CLUSTER) {
        return ROUTE_DONE;
    }
    if (error_is(r, "MOVED")) {
        return redirect(srv, r, true) ? ROUTE_MOVED : ROUTE_DONE;
    }
    if (error_is(r, "ASK")) {
        *ask = redirect(srv, r, false);
        return *ask ? ROUTE_ASK : ROUTE_DONE;
    }
    if (error_is(r, "CLUSTERDOWN")) {
        redislock_route_forget(srv);
        return ROUTE_WAIT;
    }
    return error_is(r, "TRYAGAIN") ? ROUTE_WAIT : ROUTE_DONE;
}

/* Whether a command turned away with verdict v is sent again. */
static bool may_retry(const route_state *st, route_verdict v, const route_clock *clk)
{
    uint64_t now = redislock_now_us();

    if (clk->last) {
        return false;
    }
    if (v == ROUTE_FAILOVER) {
        return st->failovers < ROUTE_FAILOVER_SENDS && now < clk->until;
    }
    if (v == ROUTE_WAIT || st->redirects >= ROUTE_REDIRECTS_FREE) {
        /* A pause comes first: only when there is time for it and more. */
        return now + clk->pause < clk->until;
    }
    return now < clk->until;
}

/* Command k of cmd is settled: it is no longer pending, and when it is the
 * last of cmd, run's outcome stands for cmd. */
static void settled(route_state *st, const redislock_cmd *cmd, const redislock_cmd *run, int k)
{
    st->pending &= ~BIT(k);
    if (k == cmd->count - 1) {
        st->status = run->status;
        memcpy(st->errstr, run->errstr, sizeof(st->errstr));
    }
}

/* Nothing of the pass was sent (no connection, no time left): the commands
 * stay pending while a failover may explain it, else the last one's failure
 * stands. */
static void settle_unsent(route_state *st, const redislock_cmd *cmd, const redislock_cmd *run, const route_clock *clk)
{
    st->ask = NULL;
    redislock_route_forget(cmd->srv);
    /* A pinned node that ran nothing yet may be replaced by the next look;
     * one that did is tried again (and the operation fails without it). */
    (void) redislock_route_pin_stays(cmd->srv);
    st->failovers++;
    if (may_retry(st, ROUTE_FAILOVER, clk)) {
        return;
    }
    if (st->sent & BIT(cmd->count - 1)) {
        st->status = run->status;
        memcpy(st->errstr, run->errstr, sizeof(st->errstr));
    }
    st->pending &= ~st->sent;
}

/* The reply of a blocking pop that did not block: the wait ended, nothing
 * popped. */
static redisReply *nil_reply(void)
{
    redisReply *nil = calloc(1, sizeof(*nil));

    if (!nil) {
        zend_error_noreturn(E_ERROR, "redislock: out of memory");
    }
    nil->type = REDIS_REPLY_NIL;
    return nil;
}

/* Reads the reply at place pos of run to command k of cmd: it stands, or
 * the command is sent again (see the top). known: run was answered;
 * sent_again: the command before k is sent again. Returns whether k is. */
static bool settle_command(route_state *st, const redislock_cmd *cmd, redislock_cmd *run, int k, int pos, bool known,
                           bool sent_again, const route_clock *clk)
{
    const redislock_server *named = NULL;
    const redisReply *r = redislock_cmd_reply(run, pos);
    route_verdict v;

    if (!r || (pos == run->count - 1 && !known)) {
        /* Not answered: its outcome is unknown, and so is what follows. */
        settled(st, cmd, run, k);
        return sent_again;
    }
    if (sent_again && follower(st, cmd, k)) {
        /* Ran where the command before it was turned away: again with it. */
        return true;
    }
    v = judge(r, cmd->srv, &named);
    if (v == ROUTE_DONE) {
        redislock_route_pin_ran(cmd->srv);
    } else if (v == ROUTE_FAILOVER && redislock_route_pin_stays(cmd->srv)) {
        v = ROUTE_DONE; /* ran on the pinned node before: the answer stands */
    }
    if (v != ROUTE_DONE && (st->blocking & BIT(k))) {
        st->pending &= ~BIT(k);
        st->reply[k] = nil_reply();
        return false;
    }
    if (v != ROUTE_DONE && may_retry(st, v, clk)) {
        st->failovers += v == ROUTE_FAILOVER;
        st->redirects += v == ROUTE_MOVED || v == ROUTE_ASK;
        st->pause = st->pause || v == ROUTE_WAIT
                    || (v != ROUTE_FAILOVER && st->redirects > ROUTE_REDIRECTS_FREE);
        st->ask = v == ROUTE_ASK ? named : st->ask;
        return true;
    }
    st->reply[k] = redislock_cmd_take_reply(run, pos);
    settled(st, cmd, run, k);
    return false;
}

/* Reads the outcome of a pass: each command's reply stands, or sends it
 * again (see the top). */
static void settle(route_state *st, const redislock_cmd *cmd, redislock_cmd *run, const route_clock *clk)
{
    const redislock_server *asked = st->ask;
    bool sent_again = false, known = run->status == REDISLOCK_CMD_OK || run->status == REDISLOCK_CMD_ERROR;
    int pos = 0;

    if (run->status == REDISLOCK_CMD_CONNECT) {
        settle_unsent(st, cmd, run, clk);
        return;
    }
    if (!known) {
        /* Broken after it was sent: what did not answer may have run. */
        redislock_route_forget(cmd->srv);
    }
    st->ask = NULL;
    for (int k = 0; k < cmd->count; k++) {
        if (!(st->sent & BIT(k))) {
            continue;
        }
        pos += asked ? 1 : 0; /* ASKING's own reply */
        sent_again = settle_command(st, cmd, run, k, pos, known, sent_again, clk);
        pos++;
    }
}

/* Gives the caller its command back with the replies that stand, in their
 * places. */
static void state_finish(route_state *st, redislock_cmd *cmd)
{
    redislock_cmd_finish(cmd, st->reply, st->status, st->errstr);
    if (!cmd->reply && (cmd->status == REDISLOCK_CMD_OK || cmd->status == REDISLOCK_CMD_ERROR)) {
        cmd->status = REDISLOCK_CMD_CONNECT;
    }
    smart_str_free(&st->buf);
}

/* One pass: sends the pending commands of each state to their nodes at
 * once, and reads what the replies say. */
static void route_pass(redislock_cmd *cmds, route_state *st, size_t n, const redislock_netopts *o,
                       const route_clock *clk)
{
    redislock_cmd run[REDISLOCK_MAX_SERVERS];
    size_t idx[REDISLOCK_MAX_SERVERS], m = 0;

    for (size_t i = 0; i < n; i++) {
        const redislock_server *node;
        if (!st[i].pending) {
            continue;
        }
        run[m] = cmds[i];
        run[m].nnatives = 0; /* the routing splits and resends buf's commands: those only */
        if (!st[i].whole) {
            run[m].count = pass_commands(&st[i], &cmds[i]);
            run[m].buf = ZSTR_VAL(st[i].buf.s);
            run[m].len = ZSTR_LEN(st[i].buf.s);
        }
        st[i].pause = false;
        node = st[i].ask ? st[i].ask : route(&run[m], cmds[i].srv, o);
        if (!node) {
            /* Nobody knows where it goes now: that stands. */
            st[i].status = REDISLOCK_CMD_CONNECT;
            memcpy(st[i].errstr, run[m].errstr, sizeof(st[i].errstr));
            st[i].pending = 0;
            continue;
        }
        run[m].srv = node;
        idx[m++] = i;
    }
    if (m > 0) {
        redislock_pool_exec(run, m, o);
    }
    for (size_t k = 0; k < m; k++) {
        size_t i = idx[k];
        if (st[i].whole) {
            /* A direct server's: as it came. */
            st[i].pending = 0;
            cmds[i] = run[k];
            continue;
        }
        settle(&st[i], &cmds[i], &run[k], clk);
        if (run[k].status == REDISLOCK_CMD_OK) {
            /* The connection that answered last (SIGTERM releases go there). */
            cmds[i].term_serial = run[k].term_serial;
            cmds[i].term_fd = run[k].term_fd;
        }
        redislock_cmd_dtor(&run[k], 1);
    }
}

void redislock_route_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts)
{
    route_state st[REDISLOCK_MAX_SERVERS];
    uint64_t start = redislock_now_us();
    route_clock clk = { opts->deadline ? opts->deadline : start + (uint64_t) opts->read_timeout * 1000,
                        ROUTE_PAUSE_MIN_US, false };
    /* Routed commands run in passes over copies of the caller's: a round
     * that may end early (opts->enough) watches the caller's, so through
     * the routing layer it waits for every answer. After the first pass,
     * nothing runs past the routing's deadline. */
    redislock_netopts whole = *opts;

    whole.enough = NULL;
    whole.identify = false; /* a pass goes to nodes of the moment, not the list's servers */
    ZEND_ASSERT(n <= REDISLOCK_MAX_SERVERS);
    for (size_t i = 0; i < n; i++) {
        ZEND_ASSERT(cmds[i].count >= 1 && cmds[i].count <= REDISLOCK_PIPELINE_MAX);
        cmds[i].term_serial = 0;
        cmds[i].native = 0; /* buf's commands, whatever the passes send */
        if (!state_init(&st[i], &cmds[i])) {
            st[i].pending = 0;
            snprintf(st[i].errstr, sizeof(st[i].errstr), "cannot route a malformed command to %s", cmds[i].srv->label);
        }
    }
    for (int pass = 0; pass < ROUTE_PASSES_MAX; pass++) {
        bool any = false, pause = false;
        for (size_t i = 0; i < n; i++) {
            any = any || st[i].pending;
            pause = pause || (st[i].pending && st[i].pause);
        }
        if (!any) {
            break;
        }
        if (pause) {
            uint64_t now = redislock_now_us();
            if (now < clk.until) {
                usleep((useconds_t) MIN(clk.pause, clk.until - now));
            }
            clk.pause = MIN(clk.pause * 2, ROUTE_PAUSE_MAX_US);
        }
        if (pass > 0) {
            whole.deadline = clk.until;
        }
        clk.last = pass + 1 == ROUTE_PASSES_MAX;
        route_pass(cmds, st, n, &whole, &clk);
    }
    for (size_t i = 0; i < n; i++) {
        if (!st[i].whole) {
            state_finish(&st[i], &cmds[i]);
        }
    }
}
