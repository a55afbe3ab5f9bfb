/*
 * Driving commands over their connections: connect, send, receive, in one
 * poll() loop for every server of an exchange, each command with its own
 * deadline. A new connection's handshake goes first and is checked here; a
 * connection that broke says why when the server did (maxclients).
 */
#include "php_redislock.h"
#include "client/io.h"
#include "client/conn.h"
#include "client/term.h"
#include "base/clock.h"

#include <errno.h>
#include <poll.h>
#include <string.h>

/* How long a connection reopened after its handshake broke listens before
 * it sends: a server at maxclients writes its refusal and closes at once,
 * and a handshake already on its way would turn that into a reset that
 * loses the message. */
#define PROBE_US 250000

static void cmd_fail(redislock_cmd *cmd, int status, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);

/* Closes the command's connection, keeping the run id it learnt for the
 * rest of the exchange (client/pool.c checks them once it ends). */
static void cmd_close(redislock_cmd *cmd)
{
    memcpy(cmd->run_id, cmd->conn->run_id, sizeof(cmd->run_id));
    redislock_conn_drop(cmd->conn);
    cmd->conn = NULL;
}

/* Ends a command with a failure; a connection whose state is now unknown is
 * closed. */
static void cmd_fail(redislock_cmd *cmd, int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(cmd->errstr, sizeof(cmd->errstr), fmt, ap);
    va_end(ap);
    if (cmd->in_hello && status != REDISLOCK_CMD_NOTSENT) {
        /* The command itself was never sent. */
        status = REDISLOCK_CMD_CONNECT;
    }
    cmd->status = status;
    cmd->phase = REDISLOCK_PHASE_DONE;
    if (cmd->conn) {
        cmd_close(cmd);
    }
}

static void cmd_broken(redislock_cmd *cmd, int status, const char *what);

/* What a failed read or write of transport t says: the transport's own
 * words when it has them (TLS), else errno's. */
static const char *io_error(const redislock_transport *t)
{
    const char *words = t->ops->error(t);

    return words ? words : strerror(errno);
}

/* Writes as much of the command as the socket takes. */
static void cmd_send(redislock_cmd *cmd)
{
    redislock_conn *c = cmd->conn;

    /* Until the command is out whole, no release may go out on SIGTERM
     * (client/term.h): it would land inside the command. */
    redislock_term_busy(c->term_mark);
    while (cmd->sent < cmd->outlen) {
        ssize_t n = c->t.ops->write(&c->t, cmd->out + cmd->sent, cmd->outlen - cmd->sent);
        if (n > 0) {
            cmd->sent += (size_t) n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            /* Nothing of a command the server never saw whole can have run. */
            char what[REDISLOCK_ERRLEN];
            snprintf(what, sizeof(what), "lost while sending: %s", io_error(&c->t));
            cmd_broken(cmd, cmd->sent == 0 ? REDISLOCK_CMD_NOTSENT : REDISLOCK_CMD_LOST, what);
            return;
        }
    }
    redislock_term_idle(c->term_mark, c->serial);
    cmd->phase = REDISLOCK_PHASE_RECV;
}

/* The handshake of a new connection is complete: checks it, then sends the
 * command itself. */
static void hello_done(redislock_cmd *cmd)
{
    char err[REDISLOCK_ERRLEN];
    redislock_conn *c = cmd->conn;

    if (redislock_conn_hello_check(cmd, err, sizeof(err)) != REDISLOCK_OK) {
        cmd_fail(cmd, REDISLOCK_CMD_CONNECT, "%s", err);
        return;
    }
    redislock_cmd_dtor(cmd, 1);
    ZEND_SECURE_ZERO(c->hello, c->hello_len);
    pefree(c->hello, 1);
    c->hello = NULL;
    c->hello_len = 0;
    c->hello_count = 0;
    c->hello_auth = c->hello_select = c->hello_setname = c->hello_server = c->hello_info = false;
    cmd->in_hello = false;
    redislock_conn_choose(cmd);
    cmd->sent = 0;
    cmd->phase = REDISLOCK_PHASE_SEND;
    cmd_send(cmd);
}

/* Why a connection the server closed was closed, when the server said so
 * first: an error reply among the handshake replies read so far, or among
 * the bytes still waiting (a server at maxclients writes "-ERR max number of
 * clients reached" and hangs up before reading anything). Writes it into
 * text and returns true when there is one. */
static bool closed_reason(redislock_cmd *cmd, char *text, size_t textlen)
{
    redisReader *reader = cmd->conn->reader;
    redislock_transport *t = &cmd->conn->t;
    const char *words = t->ops->error(t);
    redisReply *r = NULL;
    char buf[512];
    bool found = false;

    if (cmd->in_hello) {
        for (int k = 0; k < cmd->got && k < cmd->expect - 1; k++) {
            if (cmd->early[k]->type == REDIS_REPLY_ERROR) {
                redislock_reply_error_text(cmd->early[k], text, textlen);
                return true;
            }
        }
    } else if (cmd->conn->refused[0]) {
        snprintf(text, textlen, "%s", cmd->conn->refused);
        return true;
    }
    if (words) {
        /* The transport heard why: a TLS alert (a client certificate missing). */
        snprintf(text, textlen, "%s", words);
        return true;
    }
    for (int i = 0; i < 4; i++) {
        ssize_t n = t->ops->read(t, buf, sizeof(buf));
        if (n < 0 && (words = t->ops->error(t)) != NULL) {
            snprintf(text, textlen, "%s", words);
            return true;
        }
        if (n <= 0 || redislock_reply_feed(reader, buf, (size_t) n, REDISLOCK_REPLY_MAX_BUFFER) != REDISLOCK_READ_MORE) {
            break;
        }
    }
    while (!found && redislock_reply_next(reader, &r, REDISLOCK_REPLY_MAX_BUFFER) == REDISLOCK_READ_REPLY) {
        if (r->type == REDIS_REPLY_ERROR && (cmd->in_hello || cmd->got == 0)) {
            redislock_reply_error_text(r, text, textlen);
            found = true;
        }
        freeReplyObject(r);
    }
    return found;
}

/* Ends a command whose connection broke: with the server's own words when
 * it said why (then nothing of a handshake's command ran), else with what
 * the system said. */
static void cmd_broken(redislock_cmd *cmd, int status, const char *what)
{
    char text[REDISLOCK_ERRLEN];
    const char *hint;

    if (closed_reason(cmd, text, sizeof(text))) {
        cmd_fail(cmd, cmd->in_hello ? REDISLOCK_CMD_CONNECT : status, "%s refused the connection: %s",
                 cmd->srv->label, text);
        return;
    }
    /* A handshake that broke without a word: the command itself was never
     * sent, so the pool may reopen the connection once (and listen first:
     * see PROBE_US). */
    hint = cmd->in_hello ? cmd->conn->t.ops->hangup_hint : NULL;
    cmd_fail(cmd, cmd->in_hello && !cmd->probe_until ? REDISLOCK_CMD_NOTSENT : status, "connection to %s %s%s%s%s",
             cmd->srv->label, what, hint ? " before answering the first command (" : "", hint ? hint : "",
             hint ? ")" : "");
}

/* The bytes the replies of a command run with o may take. */
static size_t reply_max(const redislock_netopts *o)
{
    return o->reply_max ? o->reply_max : REDISLOCK_REPLY_MAX_BUFFER;
}

/* Ends a command whose reply is larger than it reads: the server ran it
 * and answered, so this is no failure of the connection (which is closed,
 * the rest of the reply unread), and asking again would get the same. */
static void cmd_too_large(redislock_cmd *cmd, size_t max)
{
    cmd_fail(cmd, REDISLOCK_CMD_TOO_LARGE, "the reply from %s is too large: over %zu bytes, the most this "
             "operation reads", cmd->srv->label, max);
}

/* Ends a command whose server sent what is not RESP: with the byte that
 * starts no reply when that is what it was (an HTTP port answers "H"). */
static void cmd_garbled(redislock_cmd *cmd)
{
    char got[8];

    if (redislock_reply_bad_byte(got, sizeof(got))) {
        cmd_fail(cmd, REDISLOCK_CMD_LOST, "protocol error from %s: got %s", cmd->srv->label, got);
        return;
    }
    cmd_fail(cmd, REDISLOCK_CMD_LOST, "protocol error from %s", cmd->srv->label);
}

/* Whether the reader answered want; else ends the command: its reply is
 * larger than it reads, or the bytes are not RESP. */
static bool read_as_wanted(redislock_cmd *cmd, redislock_read rd, redislock_read want, size_t max)
{
    if (rd == want) {
        return true;
    }
    if (rd == REDISLOCK_READ_TOO_LARGE) {
        cmd_too_large(cmd, max);
    } else {
        cmd_garbled(cmd);
    }
    return false;
}

/* The last reply a command owed is whole (in cmd->reply): counts it, and
 * completes the command, or its connection's handshake. A reader left
 * holding anything more (the server sent what nobody asked for, so the
 * replies may be out of step) fails the command as of unknown outcome and
 * closes the connection. */
static void cmd_complete(redislock_cmd *cmd, size_t max)
{
    cmd->conn->commands += (unsigned long long) cmd->expect;
    REDISLOCK_G(stats).commands += (zend_ulong) cmd->expect;
    if (redislock_conn_holds(cmd->conn)) {
        /* More than the replies owed: the ones taken may not be this
         * command's (a stray ahead of them), so its outcome is unknown. */
        cmd_fail(cmd, REDISLOCK_CMD_LOST, "unexpected data from %s after its reply: connection closed",
                 cmd->srv->label);
        return;
    }
    if (cmd->in_hello) {
        hello_done(cmd);
        return;
    }
    cmd->phase = REDISLOCK_PHASE_DONE;
    cmd->conn->flags &= ~REDISLOCK_CONN_BUSY;
    cmd->conn->refused[0] = '\0';
    if (cmd->reply->type == REDIS_REPLY_ERROR) {
        redislock_cmd_refused(cmd, cmd->reply);
    } else {
        cmd->status = REDISLOCK_CMD_OK;
        cmd->term_fd = cmd->conn->t.fd;
        cmd->term_serial = cmd->conn->serial;
    }
    if (max > REDISLOCK_REPLY_MAX_BUFFER && !redislock_reply_renew(&cmd->conn->reader)) {
        /* The reader's buffer may be as large as the reply: not kept
         * for the connection's life (the reply is whole, and stays). */
        cmd_close(cmd);
    }
}

/* Takes the replies out of the reader, and completes the command once the
 * last one it owed is whole. */
static void cmd_take_replies(redislock_cmd *cmd, size_t max)
{
    redisReader *reader = cmd->conn->reader;

    /* Replies to a command given up earlier come first. */
    if (cmd->conn->owed > 0) {
        if (!redislock_conn_discard_owed(cmd->conn)) {
            cmd_garbled(cmd);
            return;
        }
        if (cmd->conn->owed > 0) {
            return;
        }
    }
    while (cmd->got < cmd->expect) {
        redisReply *reply;
        redislock_read rd = redislock_reply_next(reader, &reply, max);

        if (rd == REDISLOCK_READ_MORE || !read_as_wanted(cmd, rd, REDISLOCK_READ_REPLY, max)) {
            return;
        }
        if (++cmd->got < cmd->expect) {
            cmd->early[cmd->got - 1] = reply;
            continue;
        }
        cmd->reply = reply;
        cmd_complete(cmd, max);
        return;
    }
}

/* Reads what the socket has and completes the command once its replies are
 * whole. */
static void cmd_recv(redislock_cmd *cmd, size_t max)
{
    redislock_conn *c = cmd->conn;
    char buf[16384];

    for (;;) {
        ssize_t n = c->t.ops->read(&c->t, buf, sizeof(buf));

        if (n > 0) {
            redislock_read rd = redislock_reply_feed(c->reader, buf, (size_t) n, max);
            if (!read_as_wanted(cmd, rd, REDISLOCK_READ_MORE, max)) {
                return;
            }
        } else if (n == 0) {
            cmd_broken(cmd, REDISLOCK_CMD_LOST, "closed by the server");
            return;
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            return;
        } else {
            char what[REDISLOCK_ERRLEN];
            snprintf(what, sizeof(what), "lost: %s", io_error(&c->t));
            cmd_broken(cmd, REDISLOCK_CMD_LOST, what);
            return;
        }
        cmd_take_replies(cmd, max);
        if (cmd->phase != REDISLOCK_PHASE_RECV) {
            return;
        }
    }
}

/* A non-blocking connect finished (the socket became writable): checks
 * how, then goes on with the handshake. */
static void cmd_connected(redislock_cmd *cmd, const redislock_netopts *o)
{
    redislock_transport *t = &cmd->conn->t;
    int rc = t->ops->connected(t);

    if (rc == REDISLOCK_AGAIN) {
        return; /* a handshake under way: poll for t->want */
    }
    if (rc != REDISLOCK_OK) {
        cmd_fail(cmd, REDISLOCK_CMD_CONNECT, "cannot connect to %s: %s", cmd->srv->label, t->errstr);
        return;
    }
    cmd->conn->flags &= ~REDISLOCK_CONN_CONNECTING;
    REDISLOCK_G(stats).connects++;
    if (!o->one_deadline) {
        redislock_cmd_deadline(cmd, o, redislock_now_us(), o->read_timeout);
    }
    if (cmd->probe_until) {
        cmd->probe_until = redislock_now_us() + PROBE_US;
        cmd->phase = REDISLOCK_PHASE_PROBE;
        return;
    }
    cmd->phase = REDISLOCK_PHASE_SEND;
    cmd_send(cmd);
}

/* Lists in pfd (and idx: which command) what each unfinished command waits
 * for; returns how many, with the earliest time one must act by in *first. */
static size_t io_watch(redislock_cmd **cmds, size_t n, struct pollfd *pfd, size_t *idx, uint64_t *first)
{
    size_t active = 0;

    *first = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        int phase = cmds[i]->phase;
        if (phase == REDISLOCK_PHASE_CONNECT || phase == REDISLOCK_PHASE_SEND || phase == REDISLOCK_PHASE_RECV || phase == REDISLOCK_PHASE_PROBE) {
            const redislock_transport *t = &cmds[i]->conn->t;
            pfd[active].fd = t->fd;
            pfd[active].events = t->want ? t->want : phase == REDISLOCK_PHASE_RECV || phase == REDISLOCK_PHASE_PROBE ? POLLIN : POLLOUT;
            pfd[active].revents = 0;
            idx[active++] = i;
            *first = MIN(*first, cmds[i]->deadline);
            if (phase == REDISLOCK_PHASE_PROBE) {
                *first = MIN(*first, cmds[i]->probe_until);
            }
        }
    }
    return active;
}

/* poll() for at most wait_us: to the microsecond where the system can
 * (a round decided early gives the others fractions of a millisecond). */
static int io_poll(struct pollfd *pfd, size_t n, uint64_t wait_us)
{
#if defined(__linux__)
    struct timespec ts = { (time_t) (wait_us / 1000000), (long) (wait_us % 1000000) * 1000 };
    return ppoll(pfd, (nfds_t) n, &ts, NULL);
#else
    return poll(pfd, (nfds_t) n, (int) MIN((wait_us + 999) / 1000, INT_MAX));
#endif
}

/* A probing connection became readable: whether the server said
 * something (kept in the reader for closed_reason()) or closed it. Bytes of
 * the transport's own (a TLS session ticket) are not the server speaking. */
static bool probe_heard(redislock_cmd *cmd)
{
    char buf[512];
    ssize_t n = cmd->conn->t.ops->read(&cmd->conn->t, buf, sizeof(buf));

    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        return false;
    }
    if (n > 0) {
        redislock_reply_feed(cmd->conn->reader, buf, (size_t) n, REDISLOCK_REPLY_MAX_BUFFER);
    }
    return true;
}

/* Moves a command on after poll() said its socket is ready. */
static void io_ready(redislock_cmd *cmd, const redislock_netopts *o)
{
    if (cmd->phase == REDISLOCK_PHASE_CONNECT) {
        cmd_connected(cmd, o);
    } else if (cmd->phase == REDISLOCK_PHASE_PROBE) {
        /* The server spoke first: it is refusing us. */
        if (probe_heard(cmd)) {
            cmd_broken(cmd, REDISLOCK_CMD_CONNECT, "closed by the server");
        }
    } else if (cmd->phase == REDISLOCK_PHASE_SEND) {
        cmd_send(cmd);
    } else {
        cmd_recv(cmd, reply_max(o));
    }
}

/* Acts on the time: a probe that heard nothing sends after all; a command
 * past its deadline fails. */
static void io_timers(redislock_cmd *cmd, uint64_t now)
{
    if (cmd->phase == REDISLOCK_PHASE_PROBE && now >= cmd->probe_until && now < cmd->deadline) {
        cmd->phase = REDISLOCK_PHASE_SEND;
        cmd_send(cmd);
        return;
    }
    if (cmd->phase == REDISLOCK_PHASE_DONE || now < cmd->deadline) {
        return;
    }
    if (cmd->phase == REDISLOCK_PHASE_CONNECT && cmd->conn->t.handshaking) {
        cmd_fail(cmd, REDISLOCK_CMD_CONNECT, "cannot connect to %s: %s handshake timed out after " ZEND_LONG_FMT " ms (%s)",
                 cmd->srv->label, cmd->conn->t.ops->name, cmd->timeout_ms, cmd->conn->t.ops->stall_hint);
    } else if (cmd->phase == REDISLOCK_PHASE_CONNECT) {
        cmd_fail(cmd, REDISLOCK_CMD_CONNECT, "cannot connect to %s: timed out after " ZEND_LONG_FMT " ms",
                 cmd->srv->label, cmd->timeout_ms);
    } else {
        cmd_fail(cmd, REDISLOCK_CMD_TIMEOUT, "%s did not reply within " ZEND_LONG_FMT " ms", cmd->srv->label,
                 cmd->timeout_ms);
    }
}

/* The round's outcome is known: the commands still under way are given up.
 * A command sent whole leaves its connection owing its replies, to be read
 * and thrown away before the next command's (redislock_conn_drain()); any
 * other is closed. */
static void io_give_up(redislock_cmd **cmds, size_t n, const redislock_netopts *o)
{
    for (size_t i = 0; i < n; i++) {
        redislock_cmd *cmd = cmds[i];
        redislock_conn *c = cmd->conn;
        if (cmd->phase == REDISLOCK_PHASE_DONE) {
            continue;
        }
        if (cmd->phase == REDISLOCK_PHASE_RECV && !cmd->in_hello && !o->blocking
            && c->owed + cmd->expect - cmd->got <= REDISLOCK_CONN_OWED_MAX) {
            c->owed += cmd->expect - cmd->got;
            c->owed_until = MAX(c->owed_until, cmd->deadline);
            c->flags &= ~REDISLOCK_CONN_BUSY;
            cmd->conn = NULL; /* kept in the pool */
        }
        cmd_fail(cmd, cmd->phase == REDISLOCK_PHASE_CONNECT ? REDISLOCK_CMD_CONNECT : REDISLOCK_CMD_TIMEOUT,
                 "%s had not answered when a quorum had", cmd->srv->label);
    }
}

/* Whether a command is still connecting or in a handshake that asks its
 * server's run id (netopts.identify): a round decided early waits for it,
 * within its deadline (quorum_timeout), so that two names of one server are
 * seen in the first exchange they meet in, however the connects and
 * replies interleave. Only an exchange that opens a connection waits so. */
static bool io_identifying(redislock_cmd **cmds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        redislock_phase phase = cmds[i]->phase;
        if (phase != REDISLOCK_PHASE_DONE && phase != REDISLOCK_PHASE_PROBE && cmds[i]->in_hello
            && cmds[i]->conn->hello_info) {
            return true;
        }
    }
    return false;
}

/* When a round that may end early (o->enough) gives up on the commands
 * still under way: 0 while it waits for them all. */
static uint64_t io_grace_end(const redislock_netopts *o, uint64_t began, uint64_t now, uint64_t grace_end)
{
    if (o->blocking) {
        /* Decided (a quorum took the lock, or cannot): the rest get a
         * moment. One server answered: the rest of that release's wake-ups
         * get a little longer. */
        if (redislock_cmd_enough_known(o->enough)) {
            return MIN(grace_end ? grace_end : UINT64_MAX, now + REDISLOCK_GRACE_US);
        }
        return !grace_end && redislock_cmd_enough_answered(o->enough) ? now + REDISLOCK_BLOCK_GRACE_US : grace_end;
    }
    if (!grace_end && redislock_cmd_enough_known(o->enough)) {
        /* Known: a server a little slower than the others still gets to
         * answer, a frozen one costs no more than that. */
        return now + (now - began) + REDISLOCK_GRACE_US;
    }
    return grace_end;
}

void redislock_io_run(redislock_cmd **cmds, size_t n, const redislock_netopts *o)
{
    struct pollfd pfd[REDISLOCK_MAX_SERVERS];
    size_t idx[REDISLOCK_MAX_SERVERS];
    uint64_t began = redislock_now_us(), grace_end = 0;

    for (size_t i = 0; i < n; i++) {
        if (cmds[i]->phase == REDISLOCK_PHASE_SEND) {
            cmd_send(cmds[i]);
        }
    }
    for (;;) {
        uint64_t now, first;
        size_t active = io_watch(cmds, n, pfd, idx, &first);
        int rc;

        if (active == 0) {
            return;
        }
        now = redislock_now_us();
        if (o->enough) {
            grace_end = io_grace_end(o, began, now, grace_end);
        }
        if (grace_end && now >= grace_end) {
            if (!io_identifying(cmds, n)) {
                io_give_up(cmds, n, o);
                return;
            }
        } else if (grace_end) {
            first = MIN(first, grace_end);
        }
        rc = io_poll(pfd, active, now >= first ? 0 : first - now);
        if (rc < 0 && errno != EINTR) {
            for (size_t k = 0; k < active; k++) {
                cmd_fail(cmds[idx[k]], REDISLOCK_CMD_LOST, "poll failed: %s", strerror(errno));
            }
            return;
        }
        for (size_t k = 0; rc > 0 && k < active; k++) {
            if (pfd[k].revents) {
                io_ready(cmds[idx[k]], o);
            }
        }
        now = redislock_now_us();
        for (size_t k = 0; k < active; k++) {
            io_timers(cmds[idx[k]], now);
        }
    }
}
