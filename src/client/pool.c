/*
 * The connection pool: finding connections, and one exchange of commands
 * with several servers at once (the I/O itself is client/io.c's).
 *
 * A connection is found by its server's identity (address, db, user,
 * password) and by whether it is persistent. It is reused only when it is
 * known to be clean: opened by this process, no command left without its
 * reply, no error reported by hiredis, and nothing buffered while idle in any
 * layer, reply reader, transport (TLS) or socket (which would mean the server
 * closed it, or sent something nobody asked for).
 * Anything else is closed and a new connection opened in its place.
 */
#include "php_redislock.h"
#include "client/pool.h"
#include "client/io.h"
#include "client/conn.h"
#include "base/clock.h"
#include "base/process.h"

#include <poll.h>
#include <string.h>

/* The pooled connection to srv that is persistent or not, or NULL. */
static redislock_conn *pool_find(const redislock_server *srv, bool persistent)
{
    uint32_t want = persistent ? REDISLOCK_CONN_PERSISTENT : 0;

    for (uint32_t i = 0; i < REDISLOCK_G(nconns); i++) {
        redislock_conn *c = REDISLOCK_G(conns)[i];
        if ((c->flags & REDISLOCK_CONN_PERSISTENT) == want && c->id_len == srv->id_len
            && memcmp(c->id, srv->id, srv->id_len) == 0) {
            return c;
        }
    }
    return NULL;
}

/* Finds the pooled connection of each command still to send (status
 * NOTSENT), keeping it only when it is clean: opened by this process, no
 * command left without its reply, and nothing buffered while idle in any
 * layer: not in the reply reader, not inside the transport (a TLS record
 * read ahead), not on the socket (the server closed it, or sent what nobody
 * asked for). One poll() checks the sockets of them all. dropped[i]:
 * command i's connection was found unusable. In an exchange with every
 * server of a list (opts->identify: asked is not NULL), one that never
 * asked its server's run id asks ahead of the command (*asked). */
static zend_always_inline void reuse_clean(redislock_cmd *cmds, size_t n, const redislock_netopts *opts, bool *dropped,
                                           bool *asked)
{
    struct pollfd pfd[REDISLOCK_MAX_SERVERS];
    size_t idx[REDISLOCK_MAX_SERVERS], np = 0;

    for (size_t i = 0; i < n; i++) {
        redislock_cmd *cmd = &cmds[i];
        redislock_conn *c;
        if (cmd->status != REDISLOCK_CMD_NOTSENT) {
            continue;
        }
        c = cmd->conn = pool_find(cmd->srv, opts->persistent);
        if (c && c->pid != redislock_process_pid()) {
            /* Inherited from the parent across fork(): not ours to use. */
            redislock_conn_drop(c);
            cmd->conn = NULL;
        } else if (c && (c->flags & REDISLOCK_CONN_BUSY)) {
            /* Left in the middle of a command: its reply may still come. */
            redislock_conn_drop(c);
            cmd->conn = NULL;
            dropped[i] = true;
        } else if (c && c->owed > 0) {
            /* Replies of a command given up: read what came. The server
             * answered, so it is counted as alive again. */
            int owed = c->owed;
            if (!redislock_conn_drain(c, redislock_now_us())) {
                redislock_conn_drop(c);
                cmd->conn = NULL;
                dropped[i] = true;
            } else if (c->owed < owed) {
                ((redislock_server *) cmd->srv)->strikes = 0;
            }
        } else if (c && redislock_conn_holds(c)) {
            /* Idle, yet bytes wait that poll() cannot see (a TLS record
             * read ahead behind the last reply): out of step. */
            redislock_conn_drop(c);
            cmd->conn = NULL;
            dropped[i] = true;
        } else if (c) {
            if (asked && !(c->flags & REDISLOCK_CONN_IDENTIFIED)) {
                redislock_conn_ask_identity(c);
                *asked = true;
            }
            pfd[np].fd = c->t.fd;
            pfd[np].events = POLLIN;
            pfd[np].revents = 0;
            idx[np++] = i;
        }
    }
    if (np > 0 && poll(pfd, (nfds_t) np, 0) > 0) {
        for (size_t k = 0; k < np; k++) {
            if (pfd[k].revents) {
                redislock_conn_drop(cmds[idx[k]].conn);
                cmds[idx[k]].conn = NULL;
                dropped[idx[k]] = true;
            }
        }
    }
}

/* Readies a command on its connection: the handshake of a new connection
 * goes first, and the deadline starts from start. Made twice: plain for an
 * open connection to a server without native commands (all but the newest
 * servers: nothing more to do there than before they existed), the other
 * for the rest. */
static zend_always_inline void ready_body(redislock_cmd *cmd, const redislock_netopts *opts, uint64_t start, bool plain)
{
    cmd->conn->flags |= REDISLOCK_CONN_BUSY;
    cmd->in_hello = !plain && cmd->conn->hello != NULL;
    if (plain || (!cmd->in_hello && !opts->natives)) {
        cmd->out = cmd->buf;
        cmd->outlen = cmd->len;
        cmd->expect = cmd->count;
    } else if (cmd->in_hello) {
        cmd->out = cmd->conn->hello;
        cmd->outlen = cmd->conn->hello_len;
        cmd->expect = cmd->conn->hello_count;
        if (!opts->natives) {
            cmd->nnatives = 0; /* what the command goes as after the handshake (client/io.c) */
        }
    } else {
        redislock_conn_choose(cmd);
    }
    cmd->got = 0;
    cmd->sent = 0;
    cmd->status = REDISLOCK_CMD_OK;
    if (cmd->conn->flags & REDISLOCK_CONN_CONNECTING) {
        cmd->phase = REDISLOCK_PHASE_CONNECT;
        redislock_cmd_deadline(cmd, opts, start, opts->one_deadline ? opts->read_timeout : opts->connect_timeout);
    } else {
        cmd->phase = REDISLOCK_PHASE_SEND;
        redislock_cmd_deadline(cmd, opts, start, opts->read_timeout);
    }
}

static zend_never_inline void cmd_ready_other(redislock_cmd *cmd, const redislock_netopts *opts, uint64_t start)
{
    ready_body(cmd, opts, start, false);
}

static void cmd_ready(redislock_cmd *cmd, const redislock_netopts *opts, uint64_t start)
{
    if (UNEXPECTED(cmd->conn->hello != NULL || cmd->conn->natives != 0)) {
        cmd_ready_other(cmd, opts, start);
        return;
    }
    ready_body(cmd, opts, start, true);
}

/* Gets a connection for each command still to send (status NOTSENT) and
 * readies the command, behind the handshake of a new connection. A pooled
 * connection is reused only when it is clean: opened by this process, no
 * command left without its reply, and nothing buffered while idle (which
 * would mean the server closed it: idle timeout, CLIENT KILL, restart; or
 * sent what nobody asked for). One poll() checks all of them. Returns the number of commands ready, listed
 * in run[]; *asked when a connection asks its server's run id (asked not
 * NULL: opts->identify). */
static zend_always_inline size_t prepare(redislock_cmd *cmds, size_t n, const redislock_netopts *opts, bool reopen,
                                         uint64_t start, redislock_cmd **run, bool *asked)
{
    bool dropped[REDISLOCK_MAX_SERVERS] = { false };
    size_t m = 0;

    reuse_clean(cmds, n, opts, dropped, asked);
    for (size_t i = 0; i < n; i++) {
        redislock_cmd *cmd = &cmds[i];
        if (cmd->status != REDISLOCK_CMD_NOTSENT) {
            continue;
        }
        if (!cmd->conn) {
            cmd->conn = redislock_conn_open(cmd->srv, opts->persistent, asked != NULL, cmd->errstr,
                                            sizeof(cmd->errstr));
            if (!cmd->conn) {
                cmd->status = REDISLOCK_CMD_CONNECT;
                continue;
            }
            if (asked) {
                *asked = true;
            }
            if (reopen || dropped[i]) {
                REDISLOCK_G(stats).reconnects++;
            }
            cmd->probe_until = reopen; /* set for real once connected */
        }
        cmd_ready(cmd, opts, start);
        run[m++] = cmd;
    }
    return m;
}

/* A round that may decide early leaves out the servers that keep failing
 * it (see REDISLOCK_STRIKES), as long as the others can make a quorum.
 * Returns which it left out (bit i: cmds[i]). */
static uint32_t skip_failing(redislock_cmd *cmds, size_t n, const redislock_netopts *opts, uint64_t now)
{
    size_t skip = 0;
    uint32_t left_out = 0;

    for (size_t i = 0; i < n; i++) {
        skip += cmds[i].srv->skip_until > now;
    }
    if (skip == 0 || n - skip < opts->enough->quorum) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].srv->skip_until > now) {
            cmds[i].status = REDISLOCK_CMD_CONNECT;
            snprintf(cmds[i].errstr, sizeof(cmds[i].errstr), "%s left out for now: it did not answer its last %d rounds",
                     cmds[i].srv->label, REDISLOCK_STRIKES);
            left_out |= (uint32_t) 1 << i;
        }
    }
    return left_out;
}

/* Sends the commands still to send (NOTSENT) and gathers the answers; a
 * connection that failed before the server saw the command is reopened
 * once. Inlined with prepare() and reuse_clean(), as before it had a
 * second caller: every operation runs it (about 110 instructions a cycle,
 * bench/callgrind.sh). */
static zend_always_inline void run_round(redislock_cmd *cmds, size_t n, const redislock_netopts *opts, uint64_t start,
                                         bool *asked)
{
    redislock_cmd *run[REDISLOCK_MAX_SERVERS];

    for (int attempt = 0; attempt < 2; attempt++) {
        size_t m = prepare(cmds, n, opts, attempt > 0, start, run, asked);
        if (m == 0) {
            break;
        }
        redislock_io_run(run, m, opts);
    }
}

/* The connection a command of the exchange went over (kept in the pool
 * when it was given up), or NULL. */
static redislock_conn *conn_of(const redislock_cmd *cmd, bool persistent)
{
    return cmd->conn ? cmd->conn : pool_find(cmd->srv, persistent);
}

/* The run id of the server a command of the exchange reached: its
 * connection's, or the one its connection learnt before it was closed
 * (given up once a quorum answered, a reply too large to keep the reader
 * for); "" when not known. */
static const char *run_id_of(const redislock_cmd *cmd, bool persistent)
{
    const redislock_conn *c = conn_of(cmd, persistent);

    return c && c->run_id[0] ? c->run_id : cmd->run_id;
}

/* After an exchange in which connections learnt their servers' run ids
 * (opts->identify): when two commands reached one server under two names,
 * every command of the exchange ends as REDISLOCK_CMD_SAME_SERVER, whatever
 * it did (the caller must not count one server twice), and the later
 * name's connection is closed, so that the next exchange finds the same.
 * Only the replies of the leftover releases that rode ahead (opts->ahead)
 * stay: what they did holds whatever the list, so they settle. */
static void same_server_check(redislock_cmd *cmds, size_t n, const redislock_netopts *opts)
{
    bool persistent = opts->persistent;
    const char *a;
    redislock_conn *c;
    char msg[REDISLOCK_ERRLEN];
    size_t i, j = 0;

    for (i = 0; i < n; i++) {
        if (!(a = run_id_of(&cmds[i], persistent))[0]) {
            continue;
        }
        for (j = i + 1; j < n; j++) {
            if (strcmp(a, run_id_of(&cmds[j], persistent)) == 0) {
                break;
            }
        }
        if (j < n) {
            break;
        }
    }
    if (i == n) {
        return;
    }
    snprintf(msg, sizeof(msg), "the quorum list names one server twice: %s and %s are the same server (same run id)",
             cmds[i].srv->label, cmds[j].srv->label);
    if ((c = conn_of(&cmds[j], persistent))) {
        redislock_conn_drop(c);
    }
    cmds[j].conn = NULL;
    for (size_t k = 0; k < n; k++) {
        redislock_cmd_keep_first(&cmds[k], opts->ahead ? cmds[k].ahead : 0);
        cmds[k].status = REDISLOCK_CMD_SAME_SERVER;
        memcpy(cmds[k].errstr, msg, sizeof(msg));
    }
}

/* Keeps count of the rounds each server was given up in, in a row. */
static void count_strikes(redislock_cmd *cmds, size_t n, uint64_t now)
{
    for (size_t i = 0; i < n; i++) {
        redislock_server *srv = (redislock_server *) cmds[i].srv;
        if (cmds[i].status == REDISLOCK_CMD_OK || cmds[i].status == REDISLOCK_CMD_ERROR) {
            /* It answered (maybe when asked after being left out). */
            srv->strikes = 0;
            srv->skip_until = 0;
        } else if (cmds[i].status == REDISLOCK_CMD_TIMEOUT
                   || (cmds[i].status == REDISLOCK_CMD_CONNECT && srv->skip_until <= now)) {
            if (++srv->strikes >= REDISLOCK_STRIKES) {
                srv->strikes = 0;
                srv->skip_until = now + REDISLOCK_SKIP_US;
            }
        }
    }
}

/* redislock_pool_exec(), made twice: identify is a constant, so that an
 * exchange that does not check run ids (one server) carries nothing of it. */
static zend_always_inline void exec_body(redislock_cmd *cmds, size_t n, const redislock_netopts *opts, bool identify)
{
    uint32_t left_out = 0;
    bool any = false, *asked = identify ? &any : NULL;

    ZEND_ASSERT(n <= REDISLOCK_MAX_SERVERS);
    for (size_t i = 0; i < n; i++) {
        ZEND_ASSERT(cmds[i].count >= 1 && cmds[i].count <= REDISLOCK_PIPELINE_MAX);
        redislock_cmd_reset(&cmds[i]);
        if (identify) {
            cmds[i].run_id[0] = '\0';
        }
    }
    /* Deadlines: a command on an open connection is answered within
     * read_timeout; a new connection gets connect_timeout to connect, then
     * read_timeout for its handshake and the command (with one_deadline, as
     * quorum locks use, read_timeout for all of it). All servers proceed at
     * once, so a server that does not answer costs its timeout once. A
     * connection that fails before the server saw the command (closed
     * between the idle check and the write) is reopened once. */
    uint64_t start = redislock_now_us();
    if (opts->deadline && start >= opts->deadline) {
        /* The operation has no time left: send nothing. */
        for (size_t i = 0; i < n; i++) {
            cmds[i].status = REDISLOCK_CMD_CONNECT;
            snprintf(cmds[i].errstr, sizeof(cmds[i].errstr), "no time left to reach %s", cmds[i].srv->label);
        }
        return;
    }
    if (opts->enough) {
        left_out = skip_failing(cmds, n, opts, start);
    }
    run_round(cmds, n, opts, start, asked);
    if (left_out && !opts->blocking && !redislock_cmd_enough_known(opts->enough)) {
        /* Leaving them out was to save time, but the others did not settle
         * the answer (one yes, one no): ask them after all, rather than
         * report an outcome they can tell. */
        for (size_t i = 0; i < n; i++) {
            if (left_out & ((uint32_t) 1 << i)) {
                cmds[i].status = REDISLOCK_CMD_NOTSENT;
                cmds[i].errstr[0] = '\0';
            }
        }
        run_round(cmds, n, opts, redislock_now_us(), asked);
    }
    if (identify && any && n > 1) {
        same_server_check(cmds, n, opts);
    }
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].status == REDISLOCK_CMD_NOTSENT) {
            cmds[i].status = REDISLOCK_CMD_CONNECT;
        }
    }
    if (opts->enough && !opts->blocking) {
        count_strikes(cmds, n, redislock_now_us());
    }
}

/* An exchange with every server of a list: see netopts.identify. */
static zend_never_inline void exec_identifying(redislock_cmd *cmds, size_t n, const redislock_netopts *opts)
{
    exec_body(cmds, n, opts, true);
}

void redislock_pool_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts)
{
    if (UNEXPECTED(opts->identify)) {
        exec_identifying(cmds, n, opts);
    } else {
        exec_body(cmds, n, opts, false);
    }
}

/* Closes the connections that have any of the given flags, or lack all of
 * the ones in without. */
static void pool_close_where(uint32_t with, uint32_t without)
{
    uint32_t i = 0;

    while (i < REDISLOCK_G(nconns)) {
        redislock_conn *c = REDISLOCK_G(conns)[i];
        if ((c->flags & with) || (without && !(c->flags & without))) {
            redislock_conn_drop(c); /* moves the last entry into slot i */
        } else {
            i++;
        }
    }
}

void redislock_pool_forget(const redislock_server *srv)
{
    uint32_t i = 0;

    while (i < REDISLOCK_G(nconns)) {
        redislock_conn *c = REDISLOCK_G(conns)[i];
        if (c->id_len == srv->id_len && memcmp(c->id, srv->id, srv->id_len) == 0) {
            redislock_conn_drop(c);
        } else {
            i++;
        }
    }
}

void redislock_pool_drop_dirty(void)
{
    pool_close_where(REDISLOCK_CONN_BUSY | REDISLOCK_CONN_CONNECTING, 0);
}

void redislock_pool_request_end(void)
{
    pool_close_where(REDISLOCK_CONN_BUSY | REDISLOCK_CONN_CONNECTING, REDISLOCK_CONN_PERSISTENT);
}

void redislock_pool_shutdown(void)
{
    while (REDISLOCK_G(nconns) > 0) {
        redislock_conn_drop(REDISLOCK_G(conns)[0]);
    }
    if (REDISLOCK_G(conns)) {
        pefree(REDISLOCK_G(conns), 1);
        REDISLOCK_G(conns) = NULL;
    }
    REDISLOCK_G(conns_size) = 0;
}

void redislock_pool_describe(void (*fn)(const char *label, bool persistent, long pid, unsigned long long commands, void *arg),
                             void *arg)
{
    for (uint32_t i = 0; i < REDISLOCK_G(nconns); i++) {
        redislock_conn *c = REDISLOCK_G(conns)[i];
        fn(c->label, (c->flags & REDISLOCK_CONN_PERSISTENT) != 0, (long) c->pid, c->commands, arg);
    }
}
