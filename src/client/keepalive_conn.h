/*
 * The keepalive thread's own Redis client (engine/keepalive.h): a small
 * blocking client over TCP, unix sockets or TLS, with AUTH and SELECT as
 * the DSN says. It is made for a thread that runs no PHP code: it uses
 * malloc(), OpenSSL and hiredis's reply reader only, never PHP's allocator
 * nor any process-wide state of the request-side client (client/conn.h,
 * client/tls.h), so that it may run beside the request at any time.
 *
 * A target (the address, credentials, database, TLS settings and timeouts
 * of one server) is copied from a parsed server on the PHP side, then only
 * read by the thread.
 */
#ifndef REDISLOCK_KEEPALIVE_CONN_H
#define REDISLOCK_KEEPALIVE_CONN_H

#include <stdbool.h>
#include <stddef.h>

#include "config/servers.h"

/* One server as the keepalive thread reaches it (all of it malloc'd). */
typedef struct redislock_keepalive_conn_target {
    char *host;            /* TCP host; NULL for a unix socket */
    int port;
    char *path;            /* unix socket path; NULL for TCP */
    char *user;            /* ACL user, or NULL */
    size_t user_len;
    char *password;        /* AUTH password, or NULL: no AUTH */
    size_t password_len;
    long db;               /* SELECT when not 0 */
    bool tls, tls_verify;
    char *tls_ca, *tls_cert, *tls_key; /* or NULL */
    int connect_timeout;   /* ms */
    int read_timeout;      /* ms, per reply */
} redislock_keepalive_conn_target;

/* What one script call came back with. */
typedef enum redislock_keepalive_conn_result {
    REDISLOCK_KEEPALIVE_CONN_INTEGER, /* an integer reply, in *value */
    REDISLOCK_KEEPALIVE_CONN_REFUSED, /* an error reply (READONLY, LOADING, ...): the server is up, not able */
    REDISLOCK_KEEPALIVE_CONN_OTHER,   /* a reply of another type */
    REDISLOCK_KEEPALIVE_CONN_FAILED,  /* no reply: unreachable, timed out, broken (the connection is closed) */
} redislock_keepalive_conn_result;

typedef struct redislock_keepalive_conn redislock_keepalive_conn;

/* A copy of srv (NULL when out of memory) with the timeouts given, in ms. */
redislock_keepalive_conn_target *redislock_keepalive_conn_target_new(const redislock_server *srv, int connect_timeout,
                                                                     int read_timeout);
/* A copy of t (NULL when out of memory). */
redislock_keepalive_conn_target *redislock_keepalive_conn_target_dup(const redislock_keepalive_conn_target *t);
void redislock_keepalive_conn_target_free(redislock_keepalive_conn_target *t);
/* Whether a and b name the same server the same way (a connection to one
 * serves the other). */
bool redislock_keepalive_conn_target_same(const redislock_keepalive_conn_target *a,
                                          const redislock_keepalive_conn_target *b);

/* A connection to t, opened (TLS handshake done), or NULL. AUTH and
 * SELECT are sent but their replies are read ahead of the first script's
 * (redislock_keepalive_conn_script_all()): opening a connection to a
 * server that accepts but does not answer costs no wait here. */
redislock_keepalive_conn *redislock_keepalive_conn_open(const redislock_keepalive_conn_target *t);
void redislock_keepalive_conn_close(redislock_keepalive_conn *c);

/* A script call: EVALSHA sha, and after NOSCRIPT the body with EVAL. argv
 * holds the nkeys keys then the arguments (argc in all, lens their
 * lengths). */
typedef struct redislock_keepalive_conn_call {
    const char *sha, *body;
    size_t body_len;
    int nkeys, argc;
    const char *const *argv;
    const size_t *lens;
} redislock_keepalive_conn_call;

/* Calls the script on n connections (at most REDISLOCK_MAX_SERVERS) at
 * once: sends it on every one, then reads each reply within the read
 * timeout of its connection from its send, so that the call costs about
 * the slowest server's time, not the sum. A server that answers NOSCRIPT
 * gets the EVAL in a second round of its own. conns[i] (or *conns[i])
 * NULL: no connection, FAILED. res[i] is what server i answered, an
 * integer reply in values[i]. After FAILED, *conns[i] is closed and NULL
 * (a late reply is never read as the next call's): the caller opens a new
 * one. Two entries may share a connection: their replies are read in
 * order. */
void redislock_keepalive_conn_script_all(redislock_keepalive_conn **conns[], size_t n,
                                         const redislock_keepalive_conn_call *call,
                                         redislock_keepalive_conn_result *res, long long *values);

#endif /* REDISLOCK_KEEPALIVE_CONN_H */
