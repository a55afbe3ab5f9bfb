/*
 * Connection pool and command I/O.
 *
 * A connection is found by its server's identity (address, db, user,
 * password) and by whether it is persistent. It is reused only when it is
 * known to be clean: opened by this process, no command left without its
 * reply, no error reported by hiredis, and nothing readable while idle (which
 * would mean the server closed it, or sent something nobody asked for).
 * Anything else is closed and a new connection opened in its place.
 */
#include "php_redislock.h"
#include "redislock_pool.h"
#include "redislock_reply.h"
#include "redislock_transport.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>


struct redislock_conn {
    redislock_transport t;       /* the bytes' way to the server */
    redisReader *reader;         /* hiredis's RESP parser, limited (redislock_reply.h) */
    char *id;                   /* the server's identity (see redislock_server.id) */
    size_t id_len;
    char *label;                /* printable address */
    pid_t pid;                  /* process that opened it */
    uint32_t flags;
    unsigned long long commands; /* replies read over it */
    char *hello;                 /* pipelined AUTH/SELECT/CLIENT SETNAME still to send, or NULL */
    size_t hello_len;
    int hello_count;             /* commands in hello */
    bool hello_auth;             /* hello starts with AUTH */
    bool hello_select;           /* hello has SELECT after AUTH (if any) */
    char refused[128];           /* an error the server answered the handshake with although it was
                                    not fatal (CLIENT SETNAME), until a command's reply came: if the
                                    connection breaks meanwhile, this is why (maxclients) */
};

#define REDISLOCK_CONN_PERSISTENT (1<<0) /* kept across requests */
#define REDISLOCK_CONN_BUSY       (1<<1) /* a command was sent and its reply not read yet */
#define REDISLOCK_CONN_CONNECTING (1<<2) /* connect() not finished yet */

#define PHASE_CONNECT 0 /* non-blocking connect under way */
#define PHASE_SEND 1
#define PHASE_RECV 2
#define PHASE_DONE 3
#define PHASE_PROBE 4   /* connected again after a handshake broke: listening before sending */

/* How long a connection reopened after its handshake broke listens before
 * it sends: a server at maxclients writes its refusal and closes at once,
 * and a handshake already on its way would turn that into a reset that
 * loses the message. */
#define PROBE_US 250000

#define REDISLOCK_CMD_NOTSENT 5 /* private: the first write failed, safe to resend */

static pid_t cached_pid;

/* Refreshes the cached pid in a child made by fork(). */
static void pid_after_fork(void)
{
    cached_pid = getpid();
}

void redislock_pid_init(void)
{
    static bool registered;

    cached_pid = getpid();
    if (!registered) {
        pthread_atfork(NULL, NULL, pid_after_fork);
        registered = true;
    }
}

pid_t redislock_pid(void)
{
    return cached_pid;
}

/* Closes a connection. Only the file descriptor is closed: nothing is ever
 * written on the way out, so a connection inherited across fork() can be
 * dropped without disturbing the parent that still uses it. */
static void conn_free(redislock_conn *c)
{
    c->t.ops->close(&c->t);
    redisReaderFree(c->reader);
    if (c->hello) {
        ZEND_SECURE_ZERO(c->hello, c->hello_len);
        pefree(c->hello, 1);
    }
    ZEND_SECURE_ZERO(c->id, c->id_len);
    pefree(c->id, 1);
    pefree(c->label, 1);
    pefree(c, 1);
}

/* Removes a connection from the pool and closes it. */
static void pool_remove(redislock_conn *c)
{
    for (uint32_t i = 0; i < REDISLOCK_G(nconns); i++) {
        if (REDISLOCK_G(conns)[i] == c) {
            REDISLOCK_G(conns)[i] = REDISLOCK_G(conns)[--REDISLOCK_G(nconns)];
            break;
        }
    }
    conn_free(c);
}

static void pool_add(redislock_conn *c)
{
    if (REDISLOCK_G(nconns) == REDISLOCK_G(conns_size)) {
        REDISLOCK_G(conns_size) = REDISLOCK_G(conns_size) ? REDISLOCK_G(conns_size) * 2 : 8;
        REDISLOCK_G(conns) = perealloc(REDISLOCK_G(conns), REDISLOCK_G(conns_size) * sizeof(redislock_conn *), 1);
    }
    REDISLOCK_G(conns)[REDISLOCK_G(nconns)++] = c;
}

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

static void cmd_fail(redislock_cmd *cmd, int status, const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);

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
    cmd->phase = PHASE_DONE;
    if (cmd->conn) {
        pool_remove(cmd->conn);
        cmd->conn = NULL;
    }
}

static void cmd_broken(redislock_cmd *cmd, int status, const char *what);

/* Writes as much of the command as the socket takes. */
static void cmd_send(redislock_cmd *cmd)
{
    while (cmd->sent < cmd->outlen) {
        ssize_t n = cmd->conn->t.ops->write(&cmd->conn->t, cmd->out + cmd->sent, cmd->outlen - cmd->sent);
        if (n > 0) {
            cmd->sent += (size_t) n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            /* Nothing of a command the server never saw whole can have run. */
            char what[REDISLOCK_ERRLEN];
            snprintf(what, sizeof(what), "lost while sending: %s", strerror(errno));
            cmd_broken(cmd, cmd->sent == 0 ? REDISLOCK_CMD_NOTSENT : REDISLOCK_CMD_LOST, what);
            return;
        }
    }
    cmd->phase = PHASE_RECV;
}

/* Checks the handshake replies of a new connection. AUTH or SELECT refused
 * is fatal (the message says which); a server or ACL that refuses CLIENT
 * SETNAME is no reason to fail, but its words are kept in case the server
 * hangs up next (a server at maxclients answers the first command it reads
 * with its refusal, and closes). */
static int hello_check(redislock_cmd *h, char *err, size_t errlen)
{
    redislock_conn *c = h->conn;
    char text[REDISLOCK_ERRLEN];
    int i = 0;

    if (c->hello_auth) {
        redisReply *r = h->early[i++];
        if (r->type == REDIS_REPLY_ERROR) {
            redislock_reply_error_text(r, text, sizeof(text));
            snprintf(err, errlen, "authentication to %s failed: %s", h->srv->label, text);
            return REDISLOCK_ERR;
        }
    }
    if (c->hello_select) {
        redisReply *r = i < h->expect - 1 ? h->early[i] : h->reply;
        if (r->type == REDIS_REPLY_ERROR) {
            redislock_reply_error_text(r, text, sizeof(text));
            snprintf(err, errlen, "cannot select database " ZEND_LONG_FMT " on %s: %s", h->srv->db, h->srv->label,
                     text);
            return REDISLOCK_ERR;
        }
    }
    if (h->reply->type == REDIS_REPLY_ERROR) {
        redislock_reply_error_text(h->reply, c->refused, sizeof(c->refused));
    }
    return REDISLOCK_OK;
}

/* The handshake of a new connection is complete: checks it, then sends the
 * command itself. */
static void hello_done(redislock_cmd *cmd)
{
    char err[REDISLOCK_ERRLEN];
    redislock_conn *c = cmd->conn;

    if (hello_check(cmd, err, sizeof(err)) != REDISLOCK_OK) {
        cmd_fail(cmd, REDISLOCK_CMD_CONNECT, "%s", err);
        return;
    }
    redislock_cmds_dtor(cmd, 1);
    ZEND_SECURE_ZERO(c->hello, c->hello_len);
    pefree(c->hello, 1);
    c->hello = NULL;
    cmd->in_hello = false;
    cmd->out = cmd->buf;
    cmd->outlen = cmd->len;
    cmd->expect = cmd->count;
    cmd->sent = 0;
    cmd->phase = PHASE_SEND;
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
    for (int i = 0; i < 4; i++) {
        ssize_t n = cmd->conn->t.ops->read(&cmd->conn->t, buf, sizeof(buf));
        if (n <= 0 || redislock_reader_feed(reader, buf, (size_t) n) != REDISLOCK_READ_MORE) {
            break;
        }
    }
    while (!found && redislock_reader_next(reader, &r) == REDISLOCK_READ_REPLY) {
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

    if (closed_reason(cmd, text, sizeof(text))) {
        cmd_fail(cmd, cmd->in_hello ? REDISLOCK_CMD_CONNECT : status, "%s refused the connection: %s",
                 cmd->srv->label, text);
        return;
    }
    /* A handshake that broke without a word: the command itself was never
     * sent, so the pool may reopen the connection once (and listen first:
     * see PROBE_US). */
    cmd_fail(cmd, cmd->in_hello && !cmd->probe_until ? REDISLOCK_CMD_NOTSENT : status, "connection to %s %s",
             cmd->srv->label, what);
}

/* Takes the replies out of the reader, and completes the command once the
 * last one it owed is whole. A reader left holding anything more (the
 * server sent what nobody asked for, so the replies may be out of step)
 * fails the command as of unknown outcome and closes the connection. */
static void cmd_take_replies(redislock_cmd *cmd)
{
    redisReader *reader = cmd->conn->reader;

    while (cmd->got < cmd->expect) {
        redisReply *reply;
        redislock_read rd = redislock_reader_next(reader, &reply);

        if (rd == REDISLOCK_READ_MORE) {
            return;
        }
        if (rd != REDISLOCK_READ_REPLY) {
            cmd_fail(cmd, REDISLOCK_CMD_LOST, rd == REDISLOCK_READ_TOO_LARGE ? "reply from %s is too large"
                                                                               : "protocol error from %s",
                     cmd->srv->label);
            return;
        }
        if (++cmd->got < cmd->expect) {
            cmd->early[cmd->got - 1] = reply;
            continue;
        }
        cmd->reply = reply;
        cmd->conn->commands += (unsigned long long) cmd->expect;
        REDISLOCK_G(stats).commands += (zend_ulong) cmd->expect;
        if (redislock_reader_pending(reader)) {
            cmd_fail(cmd, REDISLOCK_CMD_LOST, "unexpected data from %s after its reply: connection closed",
                     cmd->srv->label);
            return;
        }
        if (cmd->in_hello) {
            hello_done(cmd);
            return;
        }
        cmd->phase = PHASE_DONE;
        cmd->conn->flags &= ~REDISLOCK_CONN_BUSY;
        cmd->conn->refused[0] = '\0';
        if (cmd->reply->type == REDIS_REPLY_ERROR) {
            char text[REDISLOCK_ERRLEN];
            redislock_reply_error_text(cmd->reply, text, sizeof(text));
            cmd->status = REDISLOCK_CMD_ERROR;
            snprintf(cmd->errstr, sizeof(cmd->errstr), "%s replied: %s", cmd->srv->label, text);
        } else {
            cmd->status = REDISLOCK_CMD_OK;
        }
        return;
    }
}

/* Reads what the socket has and completes the command once its replies are
 * whole. */
static void cmd_recv(redislock_cmd *cmd)
{
    redislock_conn *c = cmd->conn;
    char buf[16384];

    for (;;) {
        ssize_t n = c->t.ops->read(&c->t, buf, sizeof(buf));

        if (n > 0) {
            redislock_read rd = redislock_reader_feed(c->reader, buf, (size_t) n);
            if (rd != REDISLOCK_READ_MORE) {
                cmd_fail(cmd, REDISLOCK_CMD_LOST, rd == REDISLOCK_READ_TOO_LARGE ? "reply from %s is too large"
                                                                                   : "protocol error from %s",
                         cmd->srv->label);
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
            snprintf(what, sizeof(what), "lost: %s", strerror(errno));
            cmd_broken(cmd, REDISLOCK_CMD_LOST, what);
            return;
        }
        cmd_take_replies(cmd);
        if (cmd->phase != PHASE_RECV) {
            return;
        }
    }
}

/* Sets the command's deadline to timeout_ms after from, or to the
 * operation's own deadline when that comes first. */
static void cmd_deadline(redislock_cmd *cmd, const redislock_netopts *o, uint64_t from, zend_long timeout_ms)
{
    cmd->deadline = from + (uint64_t) timeout_ms * 1000;
    cmd->timeout_ms = timeout_ms;
    if (o->deadline && o->deadline < cmd->deadline) {
        cmd->deadline = o->deadline;
        cmd->timeout_ms = o->deadline > from ? (zend_long) ((o->deadline - from) / 1000) : 0;
    }
}

/* A non-blocking connect finished (the socket became writable): checks
 * how, then goes on with the handshake. */
static void cmd_connected(redislock_cmd *cmd, const redislock_netopts *o)
{
    redislock_transport *t = &cmd->conn->t;

    if (t->ops->connected(t) != REDISLOCK_OK) {
        cmd_fail(cmd, REDISLOCK_CMD_CONNECT, "cannot connect to %s: %s", cmd->srv->label, t->errstr);
        return;
    }
    cmd->conn->flags &= ~REDISLOCK_CONN_CONNECTING;
    REDISLOCK_G(stats).connects++;
    if (!o->one_deadline) {
        cmd_deadline(cmd, o, redislock_now_us(), o->read_timeout);
    }
    if (cmd->probe_until) {
        cmd->probe_until = redislock_now_us() + PROBE_US;
        cmd->phase = PHASE_PROBE;
        return;
    }
    cmd->phase = PHASE_SEND;
    cmd_send(cmd);
}

/* Drives the commands (each with its connection) until every one has its
 * reply or failed, or its deadline passes. A reply that arrived by the
 * deadline is always read. */
static void io_run(redislock_cmd **cmds, size_t n, const redislock_netopts *o)
{
    struct pollfd pfd[REDISLOCK_MAX_SERVERS];
    size_t idx[REDISLOCK_MAX_SERVERS];

    for (size_t i = 0; i < n; i++) {
        if (cmds[i]->phase == PHASE_SEND) {
            cmd_send(cmds[i]);
        }
    }
    for (;;) {
        size_t active = 0;
        uint64_t now, first = UINT64_MAX;
        int rc;

        for (size_t i = 0; i < n; i++) {
            int phase = cmds[i]->phase;
            if (phase == PHASE_CONNECT || phase == PHASE_SEND || phase == PHASE_RECV || phase == PHASE_PROBE) {
                pfd[active].fd = cmds[i]->conn->t.fd;
                pfd[active].events = phase == PHASE_RECV || phase == PHASE_PROBE ? POLLIN : POLLOUT;
                pfd[active].revents = 0;
                idx[active++] = i;
                first = MIN(first, cmds[i]->deadline);
                if (phase == PHASE_PROBE) {
                    first = MIN(first, cmds[i]->probe_until);
                }
            }
        }
        if (active == 0) {
            return;
        }
        now = redislock_now_us();
        rc = poll(pfd, (nfds_t) active, now >= first ? 0 : (int) ((first - now + 999) / 1000));
        if (rc < 0 && errno != EINTR) {
            for (size_t k = 0; k < active; k++) {
                cmd_fail(cmds[idx[k]], REDISLOCK_CMD_LOST, "poll failed: %s", strerror(errno));
            }
            return;
        }
        for (size_t k = 0; rc > 0 && k < active; k++) {
            redislock_cmd *cmd = cmds[idx[k]];
            if (!pfd[k].revents) {
                continue;
            }
            if (cmd->phase == PHASE_CONNECT) {
                cmd_connected(cmd, o);
            } else if (cmd->phase == PHASE_PROBE) {
                /* The server spoke first: it is refusing us. */
                cmd_broken(cmd, REDISLOCK_CMD_CONNECT, "closed by the server");
            } else if (cmd->phase == PHASE_SEND) {
                cmd_send(cmd);
            } else {
                cmd_recv(cmd);
            }
        }
        now = redislock_now_us();
        for (size_t k = 0; k < active; k++) {
            redislock_cmd *cmd = cmds[idx[k]];
            if (cmd->phase == PHASE_PROBE && now >= cmd->probe_until && now < cmd->deadline) {
                cmd->phase = PHASE_SEND;
                cmd_send(cmd);
                continue;
            }
            if (cmd->phase == PHASE_DONE || now < cmd->deadline) {
                continue;
            }
            if (cmd->phase == PHASE_CONNECT) {
                cmd_fail(cmd, REDISLOCK_CMD_CONNECT, "cannot connect to %s: timed out after " ZEND_LONG_FMT " ms",
                         cmd->srv->label, cmd->timeout_ms);
            } else {
                cmd_fail(cmd, REDISLOCK_CMD_TIMEOUT, "%s did not reply within " ZEND_LONG_FMT " ms",
                         cmd->srv->label, cmd->timeout_ms);
            }
        }
    }
}

size_t redislock_format(char **out, int argc, const char **argv, const size_t *lens)
{
    int len = redisFormatCommandArgv(out, argc, argv, lens);

    if (len < 0) {
        zend_error_noreturn(E_ERROR, "redislock: out of memory formatting a command");
    }
    return (size_t) len;
}

/* Appends one formatted command to the connection's handshake. */
static void hello_append(redislock_conn *c, int argc, const char **argv, const size_t *lens)
{
    char *cmd = NULL;
    size_t len = redislock_format(&cmd, argc, argv, lens);

    c->hello = perealloc(c->hello, c->hello_len + len, 1);
    memcpy(c->hello + c->hello_len, cmd, len);
    c->hello_len += len;
    c->hello_count++;
    ZEND_SECURE_ZERO(cmd, len);
    redisFreeCommand(cmd);
}

/* Opens a TCP or unix connection and prepares (without sending it) the
 * handshake that must precede any command: AUTH, SELECT, CLIENT SETNAME.
 * On failure returns NULL with a message in err. */
static redislock_conn *conn_open(const redislock_server *srv, const redislock_netopts *o, char *err, size_t errlen)
{
    redislock_conn *c;
    redislock_transport t = { .ops = redislock_transport_for(srv), .fd = -1 };
    const char *argv[3];
    size_t lens[3];
    char name[64], db[24];

    /* Non-blocking: the connect completes in io_run(), alongside the other
     * servers, so an unreachable host holds up nobody. */
    if (t.ops->connect(&t, srv) != REDISLOCK_OK) {
        snprintf(err, errlen, "cannot connect to %s: %s", srv->label, t.errstr);
        return NULL;
    }

    c = pecalloc(1, sizeof(*c), 1);
    c->t = t;
    c->reader = redisReaderCreate();
    if (!c->reader) {
        zend_error_noreturn(E_ERROR, "redislock: out of memory creating a reply reader");
    }
    redislock_reader_limit(c->reader);
    c->id = pemalloc(srv->id_len, 1);
    memcpy(c->id, srv->id, srv->id_len);
    c->id_len = srv->id_len;
    c->label = pestrdup(srv->label, 1);
    c->pid = redislock_pid();
    c->flags = (o->persistent ? REDISLOCK_CONN_PERSISTENT : 0) | REDISLOCK_CONN_CONNECTING;

    if (srv->password) {
        int argc = 0;
        argv[argc] = "AUTH";
        lens[argc++] = 4;
        if (srv->user) {
            argv[argc] = srv->user;
            lens[argc++] = srv->user_len;
        }
        argv[argc] = srv->password;
        lens[argc++] = srv->password_len;
        hello_append(c, argc, argv, lens);
        c->hello_auth = true;
    }
    if (srv->db) {
        argv[0] = "SELECT";
        lens[0] = 6;
        lens[1] = (size_t) snprintf(db, sizeof(db), ZEND_LONG_FMT, srv->db);
        argv[1] = db;
        hello_append(c, 2, argv, lens);
        c->hello_select = true;
    }
    /* Names the connection so operators can tell it apart. */
    argv[0] = "CLIENT";
    lens[0] = 6;
    argv[1] = "SETNAME";
    lens[1] = 7;
    lens[2] = (size_t) snprintf(name, sizeof(name), "redislock:%ld", (long) c->pid);
    argv[2] = name;
    hello_append(c, 3, argv, lens);
    return c;
}

/* Gets a connection for each command still to send (status NOTSENT) and
 * readies the command, behind the handshake of a new connection. A pooled
 * connection is reused only when it is clean: opened by this process, no
 * command left without its reply, and nothing to read while idle (which
 * would mean the server closed it: idle timeout, CLIENT KILL, restart). One
 * poll() checks all of them. Returns the number of commands ready, listed
 * in run[]. */
static size_t prepare(redislock_cmd *cmds, size_t n, const redislock_netopts *opts, bool reopen, uint64_t start,
                      redislock_cmd **run)
{
    struct pollfd pfd[REDISLOCK_MAX_SERVERS];
    bool dropped[REDISLOCK_MAX_SERVERS] = { false };
    size_t idx[REDISLOCK_MAX_SERVERS], np = 0, m = 0;

    for (size_t i = 0; i < n; i++) {
        redislock_cmd *cmd = &cmds[i];
        redislock_conn *c;
        if (cmd->status != REDISLOCK_CMD_NOTSENT) {
            continue;
        }
        c = cmd->conn = pool_find(cmd->srv, opts->persistent);
        if (c && c->pid != redislock_pid()) {
            /* Inherited from the parent across fork(): not ours to use. */
            pool_remove(c);
            cmd->conn = NULL;
        } else if (c && (c->flags & REDISLOCK_CONN_BUSY)) {
            /* Left in the middle of a command: its reply may still come. */
            pool_remove(c);
            cmd->conn = NULL;
            dropped[i] = true;
        } else if (c) {
            pfd[np].fd = c->t.fd;
            pfd[np].events = POLLIN;
            pfd[np].revents = 0;
            idx[np++] = i;
        }
    }
    if (np > 0 && poll(pfd, (nfds_t) np, 0) > 0) {
        for (size_t k = 0; k < np; k++) {
            if (pfd[k].revents) {
                pool_remove(cmds[idx[k]].conn);
                cmds[idx[k]].conn = NULL;
                dropped[idx[k]] = true;
            }
        }
    }

    for (size_t i = 0; i < n; i++) {
        redislock_cmd *cmd = &cmds[i];
        if (cmd->status != REDISLOCK_CMD_NOTSENT) {
            continue;
        }
        if (!cmd->conn) {
            cmd->conn = conn_open(cmd->srv, opts, cmd->errstr, sizeof(cmd->errstr));
            if (!cmd->conn) {
                cmd->status = REDISLOCK_CMD_CONNECT;
                continue;
            }
            pool_add(cmd->conn);
            if (reopen || dropped[i]) {
                REDISLOCK_G(stats).reconnects++;
            }
            cmd->probe_until = reopen; /* set for real once connected */
        }
        cmd->conn->flags |= REDISLOCK_CONN_BUSY;
        cmd->in_hello = cmd->conn->hello != NULL;
        cmd->out = cmd->in_hello ? cmd->conn->hello : cmd->buf;
        cmd->outlen = cmd->in_hello ? cmd->conn->hello_len : cmd->len;
        cmd->expect = cmd->in_hello ? cmd->conn->hello_count : cmd->count;
        cmd->got = 0;
        cmd->sent = 0;
        cmd->status = REDISLOCK_CMD_OK;
        if (cmd->conn->flags & REDISLOCK_CONN_CONNECTING) {
            cmd->phase = PHASE_CONNECT;
            cmd_deadline(cmd, opts, start, opts->one_deadline ? opts->read_timeout : opts->connect_timeout);
        } else {
            cmd->phase = PHASE_SEND;
            cmd_deadline(cmd, opts, start, opts->read_timeout);
        }
        run[m++] = cmd;
    }
    return m;
}

void redislock_pool_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts)
{
    redislock_cmd *run[REDISLOCK_MAX_SERVERS];

    ZEND_ASSERT(n <= REDISLOCK_MAX_SERVERS);
    for (size_t i = 0; i < n; i++) {
        ZEND_ASSERT(cmds[i].count >= 1 && cmds[i].count <= REDISLOCK_PIPELINE_MAX);
        cmds[i].reply = NULL;
        cmds[i].status = REDISLOCK_CMD_NOTSENT;
        cmds[i].errstr[0] = '\0';
        cmds[i].conn = NULL;
        cmds[i].got = 0;
        cmds[i].expect = 1;
        cmds[i].in_hello = false;
        cmds[i].probe_until = 0;
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
    for (int attempt = 0; attempt < 2; attempt++) {
        size_t m = prepare(cmds, n, opts, attempt > 0, start, run);
        if (m == 0) {
            break;
        }
        io_run(run, m, opts);
    }
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].status == REDISLOCK_CMD_NOTSENT) {
            cmds[i].status = REDISLOCK_CMD_CONNECT;
        }
    }
}

const redisReply *redislock_cmd_reply(const redislock_cmd *cmd, int k)
{
    if (cmd->in_hello || k < 0 || k >= cmd->count) {
        return NULL;
    }
    if (k == cmd->count - 1) {
        return cmd->reply;
    }
    return k < cmd->got ? cmd->early[k] : NULL;
}

void redislock_cmds_dtor(redislock_cmd *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < MIN(cmds[i].got, cmds[i].expect - 1); k++) {
            freeReplyObject(cmds[i].early[k]);
        }
        cmds[i].got = 0;
        if (cmds[i].reply) {
            freeReplyObject(cmds[i].reply);
            cmds[i].reply = NULL;
        }
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
            pool_remove(c); /* moves the last entry into slot i */
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
        pool_remove(REDISLOCK_G(conns)[0]);
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
