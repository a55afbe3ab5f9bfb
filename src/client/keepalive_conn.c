/*
 * The keepalive thread's blocking client (see client/keepalive_conn.h):
 * sockets with timeouts, OpenSSL over the socket for rediss://, hiredis's
 * reader for the replies, malloc() for everything.
 */
#include "client/keepalive_conn.h"

#ifndef _WIN32

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <hiredis/hiredis.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "base/clock.h"

#define CONN_ARGS_MAX 16    /* EVALSHA, its sha and key count, and the script's own */
#define CONN_REPLY_MAX 4096 /* the longest reply read: an integer or an error's text */

struct redislock_keepalive_conn {
    int fd;
    SSL *ssl;             /* NULL: plain */
    redisReader *reader;
    int read_timeout;     /* ms */
    int unread;           /* replies of the handshake (AUTH, SELECT) not read yet */
    uint64_t deadline;    /* of the reply to the last command sent (monotonic us) */
};

/* {{{ Targets */

/* A malloc'd copy of len bytes of s (NULL stays NULL); *ok cleared when
 * out of memory. */
static char *dup_bytes(const char *s, size_t len, bool *ok)
{
    char *d;

    if (!s) {
        return NULL;
    }
    if (!(d = malloc(len + 1))) {
        *ok = false;
        return NULL;
    }
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

static char *dup_str(const char *s, bool *ok)
{
    return s ? dup_bytes(s, strlen(s), ok) : NULL;
}

redislock_keepalive_conn_target *redislock_keepalive_conn_target_new(const redislock_server *srv, int connect_timeout,
                                                                     int read_timeout)
{
    redislock_keepalive_conn_target *t = calloc(1, sizeof(*t));
    bool ok = true;

    if (!t) {
        return NULL;
    }
    t->host = dup_str(srv->host, &ok);
    t->port = srv->port;
    t->path = dup_str(srv->path, &ok);
    t->user = dup_bytes(srv->user, srv->user_len, &ok);
    t->user_len = srv->user_len;
    t->password = dup_bytes(srv->password, srv->password_len, &ok);
    t->password_len = srv->password_len;
    t->db = (long) srv->db;
    t->tls = srv->tls;
    t->tls_verify = srv->tls_verify != 0;
    t->tls_ca = dup_str(srv->tls_ca, &ok);
    t->tls_cert = dup_str(srv->tls_cert, &ok);
    t->tls_key = dup_str(srv->tls_key, &ok);
    t->connect_timeout = connect_timeout;
    t->read_timeout = read_timeout;
    if (!ok) {
        redislock_keepalive_conn_target_free(t);
        return NULL;
    }
    return t;
}

redislock_keepalive_conn_target *redislock_keepalive_conn_target_dup(const redislock_keepalive_conn_target *t)
{
    redislock_keepalive_conn_target *d = calloc(1, sizeof(*d));
    bool ok = true;

    if (!d) {
        return NULL;
    }
    *d = *t;
    d->host = dup_str(t->host, &ok);
    d->path = dup_str(t->path, &ok);
    d->user = dup_bytes(t->user, t->user_len, &ok);
    d->password = dup_bytes(t->password, t->password_len, &ok);
    d->tls_ca = dup_str(t->tls_ca, &ok);
    d->tls_cert = dup_str(t->tls_cert, &ok);
    d->tls_key = dup_str(t->tls_key, &ok);
    if (!ok) {
        redislock_keepalive_conn_target_free(d);
        return NULL;
    }
    return d;
}

void redislock_keepalive_conn_target_free(redislock_keepalive_conn_target *t)
{
    if (!t) {
        return;
    }
    free(t->host);
    free(t->path);
    free(t->user);
    if (t->password) {
        memset(t->password, 0, t->password_len);
        free(t->password);
    }
    free(t->tls_ca);
    free(t->tls_cert);
    free(t->tls_key);
    free(t);
}

/* Whether two optional strings of lengths la and lb are equal. */
static bool same_bytes(const char *a, size_t la, const char *b, size_t lb)
{
    if (!a || !b) {
        return a == b;
    }
    return la == lb && memcmp(a, b, la) == 0;
}

static bool same_str(const char *a, const char *b)
{
    return same_bytes(a, a ? strlen(a) : 0, b, b ? strlen(b) : 0);
}

bool redislock_keepalive_conn_target_same(const redislock_keepalive_conn_target *a,
                                          const redislock_keepalive_conn_target *b)
{
    return a->port == b->port && a->db == b->db && a->tls == b->tls && a->tls_verify == b->tls_verify
           && a->connect_timeout == b->connect_timeout && a->read_timeout == b->read_timeout
           && same_str(a->host, b->host) && same_str(a->path, b->path)
           && same_bytes(a->user, a->user_len, b->user, b->user_len)
           && same_bytes(a->password, a->password_len, b->password, b->password_len)
           && same_str(a->tls_ca, b->tls_ca) && same_str(a->tls_cert, b->tls_cert) && same_str(a->tls_key, b->tls_key);
}

/* }}} */

/* {{{ Sockets */

/* Gives fd a timeout of ms (> 0) for each recv, or with SO_SNDTIMEO for
 * each send. */
static void socket_timeout(int fd, int which, int ms)
{
    struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

    setsockopt(fd, SOL_SOCKET, which, &tv, sizeof(tv));
}

/* Gives fd the timeouts of a blocking exchange: ms for each send and recv. */
static void socket_timeouts(int fd, int ms)
{
    socket_timeout(fd, SO_RCVTIMEO, ms);
    socket_timeout(fd, SO_SNDTIMEO, ms);
}

/* Connects a new socket to addr within ms; the socket is blocking after,
 * or -1. */
static int socket_connect(int family, const struct sockaddr *addr, socklen_t addrlen, int ms)
{
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), err = 0;
    socklen_t errlen = sizeof(err);
    struct pollfd p;

    if (fd < 0) {
        return -1;
    }
    if (connect(fd, addr, addrlen) != 0) {
        if (errno != EINPROGRESS) {
            goto fail;
        }
        p.fd = fd;
        p.events = POLLOUT;
        if (poll(&p, 1, ms) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &errlen) != 0 || err != 0) {
            goto fail;
        }
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        goto fail;
    }
    return fd;

fail:
    close(fd);
    return -1;
}

/* A socket connected to t (TCP or unix), or -1. */
static int target_socket(const redislock_keepalive_conn_target *t)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
    char port[16];
    int fd = -1, one = 1;

    if (t->path) {
        struct sockaddr_un un = { .sun_family = AF_UNIX };
        if (strlen(t->path) >= sizeof(un.sun_path)) {
            return -1;
        }
        memcpy(un.sun_path, t->path, strlen(t->path) + 1);
        return socket_connect(AF_UNIX, (struct sockaddr *) &un, sizeof(un), t->connect_timeout);
    }
    snprintf(port, sizeof(port), "%d", t->port);
    if (getaddrinfo(t->host, port, &hints, &res) != 0) {
        return -1;
    }
    for (ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket_connect(ai->ai_family, ai->ai_addr, ai->ai_addrlen, t->connect_timeout);
    }
    freeaddrinfo(res);
    if (fd >= 0) {
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    }
    return fd;
}

/* }}} */

/* {{{ TLS, verified as the request-side client does (client/tls.c) */

/* A client context for t's TLS settings, or NULL. */
static SSL_CTX *tls_ctx(const redislock_keepalive_conn_target *t)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    const char *key = t->tls_key ? t->tls_key : t->tls_cert;

    if (!ctx) {
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_AUTO_RETRY);
    SSL_CTX_set_verify(ctx, t->tls_verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, NULL);
    if ((t->tls_ca ? SSL_CTX_load_verify_locations(ctx, t->tls_ca, NULL) != 1
                   : SSL_CTX_set_default_verify_paths(ctx) != 1)
        || (t->tls_key && !t->tls_cert)
        || (t->tls_cert && SSL_CTX_use_certificate_chain_file(ctx, t->tls_cert) != 1)
        || (key && (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1
                    || SSL_CTX_check_private_key(ctx) != 1))) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/* A TLS session over fd to t, its handshake done (the server's name
 * checked when verifying), or NULL. */
static SSL *tls_open(const redislock_keepalive_conn_target *t, int fd)
{
    SSL_CTX *ctx = tls_ctx(t);
    unsigned char addr[16];
    bool ip;
    SSL *ssl;

    if (!ctx) {
        return NULL;
    }
    ssl = SSL_new(ctx);
    SSL_CTX_free(ctx); /* the session holds its own reference */
    if (!ssl) {
        return NULL;
    }
    ip = inet_pton(AF_INET, t->host, addr) == 1 || inet_pton(AF_INET6, t->host, addr) == 1;
    if (SSL_set_fd(ssl, fd) != 1 || (!ip && SSL_set_tlsext_host_name(ssl, t->host) != 1)
        || (t->tls_verify && (ip ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), t->host) != 1
                                 : SSL_set1_host(ssl, t->host) != 1))
        || SSL_connect(ssl) != 1) {
        SSL_free(ssl);
        return NULL;
    }
    return ssl;
}

/* }}} */

/* {{{ Commands and replies */

/* Sends len bytes of buf whole: REDISLOCK_OK or not (0 or -1). */
static int conn_send(redislock_keepalive_conn *c, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = c->ssl ? SSL_write(c->ssl, buf, (int) len) : send(c->fd, buf, len, MSG_NOSIGNAL);
        if (n <= 0) {
            if (!c->ssl && n < 0 && errno == EINTR) {
                continue;
            }
            return -1;
        }
        buf += n;
        len -= (size_t) n;
    }
    return 0;
}

/* Whether c has bytes to read by deadline (monotonic us; those there
 * already count even past it). Over TLS, the read that follows waits for
 * the rest of a record until the deadline at most (its SO_RCVTIMEO). */
static bool conn_readable(redislock_keepalive_conn *c, uint64_t deadline)
{
    uint64_t now = redislock_now_us();
    int ms = deadline > now ? (int) ((deadline - now + 999) / 1000) : 0, rc;
    struct pollfd p = { .fd = c->fd, .events = POLLIN };

    if (c->ssl && SSL_pending(c->ssl) > 0) {
        return true;
    }
    do {
        rc = poll(&p, 1, ms);
    } while (rc < 0 && errno == EINTR);
    if (rc == 1 && c->ssl) {
        socket_timeout(c->fd, SO_RCVTIMEO, ms > 0 ? ms : 1); /* 0 would be no timeout */
    }
    return rc == 1;
}

/* Reads one reply by deadline (monotonic us): it, or NULL. */
static redisReply *conn_reply(redislock_keepalive_conn *c, uint64_t deadline)
{
    void *reply = NULL;
    char buf[1024];

    for (;;) {
        ssize_t n;
        if (redisReaderGetReply(c->reader, &reply) != REDIS_OK) {
            return NULL;
        }
        if (reply) {
            return reply;
        }
        if (c->reader->len > CONN_REPLY_MAX || !conn_readable(c, deadline)) {
            return NULL;
        }
        n = c->ssl ? SSL_read(c->ssl, buf, sizeof(buf)) : recv(c->fd, buf, sizeof(buf), 0);
        if (n < 0 && !c->ssl && errno == EINTR) {
            continue;
        }
        if (n <= 0 || redisReaderFeed(c->reader, buf, (size_t) n) != REDIS_OK) {
            return NULL;
        }
    }
}

/* Sends one command, its reply due within the read timeout from now:
 * whether it went out whole. */
static bool conn_command(redislock_keepalive_conn *c, int argc, const char **argv, const size_t *lens)
{
    char *cmd = NULL;
    int len = redisFormatCommandArgv(&cmd, argc, argv, lens);
    bool ok = len >= 0 && conn_send(c, cmd, (size_t) len) == 0;

    free(cmd);
    c->deadline = redislock_now_us() + (uint64_t) c->read_timeout * 1000;
    return ok;
}

/* Sends AUTH and SELECT as t says (their replies are read before the
 * first script's): whether they went out. */
static bool conn_handshake(redislock_keepalive_conn *c, const redislock_keepalive_conn_target *t)
{
    const char *argv[3];
    size_t lens[3];
    char db[24];
    int argc = 0;

    if (t->password) {
        argv[argc] = "AUTH";
        lens[argc++] = 4;
        if (t->user) {
            argv[argc] = t->user;
            lens[argc++] = t->user_len;
        }
        argv[argc] = t->password;
        lens[argc++] = t->password_len;
        if (!conn_command(c, argc, argv, lens)) {
            return false;
        }
        c->unread++;
    }
    if (t->db != 0) {
        argv[0] = "SELECT";
        lens[0] = 6;
        lens[1] = (size_t) snprintf(db, sizeof(db), "%ld", t->db);
        argv[1] = db;
        if (!conn_command(c, 2, argv, lens)) {
            return false;
        }
        c->unread++;
    }
    return true;
}

/* Reads the handshake's replies by deadline: whether each said OK. */
static bool conn_handshake_read(redislock_keepalive_conn *c, uint64_t deadline)
{
    for (; c->unread > 0; c->unread--) {
        redisReply *r = conn_reply(c, deadline);
        bool ok = r && r->type == REDIS_REPLY_STATUS;

        if (r) {
            freeReplyObject(r);
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

redislock_keepalive_conn *redislock_keepalive_conn_open(const redislock_keepalive_conn_target *t)
{
    redislock_keepalive_conn *c = calloc(1, sizeof(*c));

    if (!c) {
        return NULL;
    }
    c->read_timeout = t->read_timeout;
    if ((c->fd = target_socket(t)) < 0) {
        free(c);
        return NULL;
    }
    socket_timeouts(c->fd, t->read_timeout);
    if ((t->tls && !(c->ssl = tls_open(t, c->fd))) || !(c->reader = redisReaderCreate())
        || !conn_handshake(c, t)) {
        redislock_keepalive_conn_close(c);
        return NULL;
    }
    return c;
}

void redislock_keepalive_conn_close(redislock_keepalive_conn *c)
{
    if (!c) {
        return;
    }
    if (c->ssl) {
        SSL_free(c->ssl);
    }
    if (c->reader) {
        redisReaderFree(c->reader);
    }
    close(c->fd);
    free(c);
    ERR_clear_error(); /* of this thread */
}

/* Whether r is the error NOSCRIPT (the script is not in the server's cache). */
static bool noscript(const redisReply *r)
{
    return r->type == REDIS_REPLY_ERROR && r->len >= 8 && memcmp(r->str, "NOSCRIPT", 8) == 0;
}

/* Closes *c and forgets it. */
static void conn_drop(redislock_keepalive_conn **c)
{
    redislock_keepalive_conn_close(*c);
    *c = NULL;
}

/* Sends call on *c, with EVAL and the body when eval, else EVALSHA:
 * whether it went out (*c is dropped when not). */
static bool call_send(redislock_keepalive_conn **c, const redislock_keepalive_conn_call *call, bool eval)
{
    const char *av[CONN_ARGS_MAX];
    size_t al[CONN_ARGS_MAX];
    char nk[16];

    av[0] = eval ? "EVAL" : "EVALSHA";
    al[0] = eval ? 4 : 7;
    av[1] = eval ? call->body : call->sha;
    al[1] = eval ? call->body_len : strlen(call->sha);
    al[2] = (size_t) snprintf(nk, sizeof(nk), "%d", call->nkeys);
    av[2] = nk;
    memcpy(av + 3, call->argv, sizeof(*av) * (size_t) call->argc);
    memcpy(al + 3, call->lens, sizeof(*al) * (size_t) call->argc);
    if (!*c || !conn_command(*c, call->argc + 3, av, al)) {
        if (*c) {
            conn_drop(c);
        }
        return false;
    }
    return true;
}

/* Reads the reply to the call last sent on *c by its deadline, after the
 * handshake's: what it was (an integer in *value), *again set for NOSCRIPT.
 * After FAILED *c is dropped. */
static redislock_keepalive_conn_result call_read(redislock_keepalive_conn **c, long long *value, bool *again)
{
    redisReply *r = NULL;
    redislock_keepalive_conn_result res;

    *again = false;
    if (!*c || !conn_handshake_read(*c, (*c)->deadline) || !(r = conn_reply(*c, (*c)->deadline))) {
        if (*c) {
            conn_drop(c);
        }
        return REDISLOCK_KEEPALIVE_CONN_FAILED;
    }
    *again = noscript(r);
    res = r->type == REDIS_REPLY_INTEGER ? REDISLOCK_KEEPALIVE_CONN_INTEGER
          : r->type == REDIS_REPLY_ERROR ? REDISLOCK_KEEPALIVE_CONN_REFUSED
                                         : REDISLOCK_KEEPALIVE_CONN_OTHER;
    *value = r->integer;
    freeReplyObject(r);
    return res;
}

void redislock_keepalive_conn_script_all(redislock_keepalive_conn **conns[], size_t n,
                                         const redislock_keepalive_conn_call *call,
                                         redislock_keepalive_conn_result *res, long long *values)
{
    bool sent[REDISLOCK_MAX_SERVERS], again[REDISLOCK_MAX_SERVERS];
    bool fits = call->argc + 3 <= CONN_ARGS_MAX;
    size_t i;

    /* Every server gets the call before any reply is waited for. */
    for (i = 0; i < n; i++) {
        values[i] = 0;
        res[i] = fits ? REDISLOCK_KEEPALIVE_CONN_FAILED : REDISLOCK_KEEPALIVE_CONN_OTHER;
        sent[i] = fits && conns[i] && call_send(conns[i], call, false);
    }
    for (i = 0; i < n; i++) {
        if (sent[i]) {
            res[i] = call_read(conns[i], &values[i], &again[i]);
        }
    }
    /* The ones that did not know the script: the body, to them alone. */
    for (i = 0; i < n; i++) {
        if ((sent[i] = sent[i] && again[i]) && !(sent[i] = call_send(conns[i], call, true))) {
            res[i] = REDISLOCK_KEEPALIVE_CONN_FAILED;
        }
    }
    for (i = 0; i < n; i++) {
        if (sent[i]) {
            res[i] = call_read(conns[i], &values[i], &again[i]);
        }
    }
}

/* }}} */

#else /* _WIN32: no keepalive thread (engine/keepalive.c), so no target is ever made */

redislock_keepalive_conn_target *redislock_keepalive_conn_target_new(const redislock_server *srv, int connect_timeout,
                                                                     int read_timeout)
{
    return NULL;
}

void redislock_keepalive_conn_target_free(redislock_keepalive_conn_target *t)
{
}

#endif
