/*
 * Connections: opening one (with the handshake it sends first), dropping
 * one, and reading away the replies it owes (client/conn.h).
 */
#include "php_redislock.h"
#include "client/conn.h"
#include "client/term.h"
#include "client/tls.h"
#include "base/process.h"
#include "base/resp.h"

#include <errno.h>
#include <string.h>

/* Closes a connection (see redislock_conn_drop()). */
static void conn_free(redislock_conn *c)
{
    redislock_term_busy(c->term_mark);
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

void redislock_conn_drop(redislock_conn *c)
{
    for (uint32_t i = 0; i < REDISLOCK_G(nconns); i++) {
        if (REDISLOCK_G(conns)[i] == c) {
            REDISLOCK_G(conns)[i] = REDISLOCK_G(conns)[--REDISLOCK_G(nconns)];
            break;
        }
    }
    conn_free(c);
}

/* Adds a connection to the list. */
static void conn_add(redislock_conn *c)
{
    if (REDISLOCK_G(nconns) == REDISLOCK_G(conns_size)) {
        REDISLOCK_G(conns_size) = REDISLOCK_G(conns_size) ? REDISLOCK_G(conns_size) * 2 : 8;
        REDISLOCK_G(conns) = perealloc(REDISLOCK_G(conns), REDISLOCK_G(conns_size) * sizeof(redislock_conn *), 1);
    }
    REDISLOCK_G(conns)[REDISLOCK_G(nconns)++] = c;
}

/* The transport for a server. */
static const redislock_transport_ops *transport_for(const redislock_server *srv)
{
    if (srv->path) {
        return &redislock_transport_unix;
    }
    return srv->tls ? &redislock_tls_transport : &redislock_transport_tcp;
}

/* Appends one command to the connection's handshake. */
static void hello_append(redislock_conn *c, int argc, const char **argv, const size_t *lens)
{
    smart_str cmd = { 0 };

    redislock_resp_encode(&cmd, argc, argv, lens);
    c->hello = perealloc(c->hello, c->hello_len + ZSTR_LEN(cmd.s), 1);
    memcpy(c->hello + c->hello_len, ZSTR_VAL(cmd.s), ZSTR_LEN(cmd.s));
    c->hello_len += ZSTR_LEN(cmd.s);
    c->hello_count++;
    ZEND_SECURE_ZERO(ZSTR_VAL(cmd.s), ZSTR_LEN(cmd.s));
    smart_str_free(&cmd);
}

void redislock_conn_ask_identity(redislock_conn *c)
{
    static const char *argv[2] = { "INFO", "server" };
    static const size_t lens[2] = { 4, 6 };

    hello_append(c, 2, argv, lens);
    c->hello_info = true;
}

void redislock_conn_identity(redislock_conn *c, const redisReply *r)
{
    static const char key[] = "run_id:";
    const size_t klen = sizeof(key) - 1;
    const char *line, *end, *nl;

    c->flags |= REDISLOCK_CONN_IDENTIFIED;
    c->run_id[0] = '\0';
    if (!r || r->type != REDIS_REPLY_STRING) {
        return; /* refused (-NOPERM): no run id, no check */
    }
    for (line = r->str, end = r->str + r->len; line < end; line = nl + 1) {
        size_t n;
        nl = memchr(line, '\n', (size_t) (end - line));
        nl = nl ? nl : end;
        n = (size_t) (nl - line);
        if (n > klen && memcmp(line, key, klen) == 0) {
            n -= klen + (line[n - 1] == '\r');
            if (n > 0 && n <= REDISLOCK_RUN_ID_MAX) {
                memcpy(c->run_id, line + klen, n);
                c->run_id[n] = '\0';
            }
            return;
        }
    }
}

/* Prepares the handshake of c to srv: AUTH, SELECT, CLIENT SETNAME, HELLO 2. */
static void hello_prepare(redislock_conn *c, const redislock_server *srv)
{
    const char *argv[3];
    size_t lens[3];
    char name[64], db[24];

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
    c->hello_setname = true;
    /* The server's name and version: which native commands it has. */
    argv[0] = "HELLO";
    lens[0] = 5;
    argv[1] = "2";
    lens[1] = 1;
    hello_append(c, 2, argv, lens);
    c->hello_server = true;
}

/* Whether the bulk string r is s. */
static bool reply_is(const redisReply *r, const char *s)
{
    size_t n = strlen(s);

    return r->type == REDIS_REPLY_STRING && r->len == n && memcmp(r->str, s, n) == 0;
}

uint32_t redislock_conn_natives(const redisReply *r)
{
    const redisReply *name = NULL, *version = NULL;
    unsigned major = 0, minor = 0;
    uint32_t v;
    char text[32];

    if (!r || r->type != REDIS_REPLY_ARRAY) {
        return 0; /* refused, or an older server without HELLO */
    }
    for (size_t i = 0; i + 1 < r->elements; i += 2) {
        if (reply_is(r->element[i], "server")) {
            name = r->element[i + 1];
        } else if (reply_is(r->element[i], "version")) {
            version = r->element[i + 1];
        }
    }
    if (!name || !version || version->type != REDIS_REPLY_STRING || version->len >= sizeof(text)) {
        return 0;
    }
    memcpy(text, version->str, version->len);
    text[version->len] = '\0';
    if (sscanf(text, "%u.%u", &major, &minor) != 2) {
        return 0;
    }
    v = major * 1000 + minor;
    if (reply_is(name, "valkey")) {
        return (v >= 9000 ? REDISLOCK_NATIVE_DELIFEQ : 0) | (v >= 9002 ? REDISLOCK_NATIVE_DELEX : 0)
               | (v >= 8001 ? REDISLOCK_NATIVE_SETIFEQ : 0);
    }
    if (reply_is(name, "redis")) {
        return v >= 8004 ? REDISLOCK_NATIVE_DELEX | REDISLOCK_NATIVE_SETIFEQ : 0;
    }
    return 0;
}

void redislock_conn_choose(redislock_cmd *cmd)
{
    const redislock_native *nv = NULL;

    cmd->native = 0;
    for (int k = 0; k < cmd->nnatives; k++) {
        if ((cmd->conn->natives & cmd->natives[k].needs) == cmd->natives[k].needs) {
            nv = &cmd->natives[k];
            cmd->native = k + 1;
            break;
        }
    }
    cmd->out = nv ? nv->buf : cmd->buf;
    cmd->outlen = nv ? nv->len : cmd->len;
    cmd->expect = nv ? nv->count : cmd->count;
}

redislock_conn *redislock_conn_open(const redislock_server *srv, bool persistent, bool identify, char *err,
                                    size_t errlen)
{
    redislock_conn *c;
    redislock_transport t = { .ops = transport_for(srv), .fd = -1 };

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
    redislock_reply_limit(c->reader);
    c->id = pemalloc(srv->id_len, 1);
    memcpy(c->id, srv->id, srv->id_len);
    c->id_len = srv->id_len;
    c->label = pestrdup(srv->label, 1);
    c->pid = redislock_process_pid();
    c->serial = redislock_term_watched(t.fd, t.ops->plain) ? redislock_term_serial() : 0;
    c->term_mark = redislock_term_mark(t.fd, t.ops->plain);
    c->flags = (persistent ? REDISLOCK_CONN_PERSISTENT : 0) | REDISLOCK_CONN_CONNECTING;
    hello_prepare(c, srv);
    if (identify) {
        redislock_conn_ask_identity(c);
    }
    conn_add(c);
    return c;
}

bool redislock_conn_discard_owed(redislock_conn *c)
{
    while (c->owed > 0) {
        redisReply *reply;
        redislock_read rd = redislock_reply_next(c->reader, &reply, REDISLOCK_REPLY_MAX_BUFFER);
        if (rd == REDISLOCK_READ_MORE) {
            return true;
        }
        if (rd != REDISLOCK_READ_REPLY) {
            return false;
        }
        freeReplyObject(reply);
        c->owed--;
    }
    return true;
}

bool redislock_conn_drain(redislock_conn *c, uint64_t now)
{
    char buf[4096];

    for (;;) {
        ssize_t n = c->t.ops->read(&c->t, buf, sizeof(buf));
        if (n > 0) {
            if (redislock_reply_feed(c->reader, buf, (size_t) n, REDISLOCK_REPLY_MAX_BUFFER) != REDISLOCK_READ_MORE) {
                return false;
            }
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
            return false;
        }
        break;
    }
    if (!redislock_conn_discard_owed(c)) {
        return false;
    }
    if (c->owed == 0) {
        /* All came: nothing else may be there, in any layer. */
        return !redislock_conn_holds(c);
    }
    return now < c->owed_until;
}

/* The reply to the k-th command of a handshake whose replies are all in. */
static const redisReply *hello_reply(const redislock_cmd *h, int k)
{
    return k < h->expect - 1 ? h->early[k] : h->reply;
}

/* Checks the handshake replies of a connection. AUTH or SELECT refused is
 * fatal (the message says which); a server or ACL that refuses CLIENT
 * SETNAME is no reason to fail, but its words are kept in case the server
 * hangs up next (a server at maxclients answers the first command it reads
 * with its refusal, and closes). HELLO gives the native commands the server
 * has (none when refused), INFO server the run id, if the ACL lets it. */
int redislock_conn_hello_check(redislock_cmd *h, char *err, size_t errlen)
{
    redislock_conn *c = h->conn;
    char text[REDISLOCK_ERRLEN];
    const redisReply *r;
    int i = 0;

    if (c->hello_auth && (r = hello_reply(h, i++))->type == REDIS_REPLY_ERROR) {
        redislock_reply_error_text(r, text, sizeof(text));
        snprintf(err, errlen, "authentication to %s failed: %s", h->srv->label, text);
        return REDISLOCK_ERR;
    }
    if (c->hello_select && (r = hello_reply(h, i++))->type == REDIS_REPLY_ERROR) {
        const char *hint = redislock_reply_refusal(r);
        redislock_reply_error_text(r, text, sizeof(text));
        snprintf(err, errlen, "cannot select database " ZEND_LONG_FMT " on %s: %s%s%s%s", h->srv->db,
                 h->srv->label, text, hint && hint[0] ? " (" : "", hint ? hint : "", hint && hint[0] ? ")" : "");
        return REDISLOCK_ERR;
    }
    if (c->hello_setname && (r = hello_reply(h, i++))->type == REDIS_REPLY_ERROR) {
        redislock_reply_error_text(r, c->refused, sizeof(c->refused));
    }
    if (c->hello_server) {
        c->natives = redislock_conn_natives(hello_reply(h, i++));
        REDISLOCK_G(natives_seen) |= c->natives;
    }
    if (c->hello_info) {
        redislock_conn_identity(c, hello_reply(h, i++));
    }
    return REDISLOCK_OK;
}
