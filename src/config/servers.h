/*
 * DSN lists: the `servers` setting parsed into servers (address,
 * credentials, database, TLS settings, pool identity), shared by reference,
 * each distinct text parsed once per process, and written back in a
 * canonical form (how phpinfo() shows them, passwords masked). The grammar
 * of one DSN is dsn.c's; the lists are servers.c's.
 */
#ifndef REDISLOCK_SERVERS_H
#define REDISLOCK_SERVERS_H

#include "php.h"
#include "zend_smart_str.h"
#include "base/status.h"
#include "config/tls_settings.h"

#define REDISLOCK_MAX_SERVERS 15            /* servers in one quorum */
#define REDISLOCK_DEFAULT_PORT 6379

/* What one entry of a DSN list is. */
typedef enum redislock_server_kind {
    REDISLOCK_SERVER_DIRECT = 0, /* redis://, rediss://, unix://: one server */
    REDISLOCK_SERVER_SENTINEL,   /* redis-sentinel://: the master a set of Sentinels names */
    REDISLOCK_SERVER_CLUSTER,    /* redis-cluster://: a Redis Cluster */
} redislock_server_kind;

typedef struct redislock_topology redislock_topology; /* config/topology.h */

/* One Redis server of a DSN list. */
typedef struct redislock_server {
    char *host;          /* TCP host name or address; NULL for a unix socket */
    int port;            /* TCP port */
    char *path;          /* unix socket path; NULL for TCP */
    char *user;          /* ACL user; NULL for the default user */
    size_t user_len;
    char *password;      /* AUTH password; NULL to skip AUTH */
    size_t password_len;
    zend_long db;        /* database to SELECT */
    char *label;         /* printable address, never with credentials: host:port/db, path?db=N */
    char *id;            /* pool identity: address, db, user, password and TLS settings, exact (binary, not a
                            C string) */
    size_t id_len;
    /* Process-local health, kept by the pool: rounds that gave this server
     * up in a row, and until when (monotonic us) a round that can make a
     * quorum without it leaves it out. */
    uint32_t strikes;
    uint64_t skip_until;
    bool tls;            /* rediss://: TLS (client/tls.c) */
    signed char tls_verify; /* verify the certificate and host name: 1, 0, or -1 until the settings decide */
    char *tls_ca;        /* CA bundle file; NULL: the system's trust store */
    char *tls_cert;      /* client certificate file (mutual TLS), or NULL */
    char *tls_key;       /* its private key file, or NULL */
    redislock_server_kind kind;
    redislock_topology *topo; /* Sentinel, Cluster: the seeds and what they said; else NULL */
} redislock_server;

/* A parsed DSN list, shared by reference between the INI setting and the
 * locks created from it. Always allocated with malloc (persistent). */
typedef struct redislock_servers {
    uint32_t refcount;
    uint32_t count;
    redislock_server server[1];
} redislock_servers;

/* Parses a comma-separated DSN list. On success stores a new list (refcount
 * 1) in *out and returns REDISLOCK_OK; on failure writes a message into err
 * (which never repeats the DSN, so it cannot leak a password) and returns
 * REDISLOCK_ERR. */
int redislock_servers_parse(const char *dsn, size_t len, redislock_servers **out, char *err, size_t errlen);
/* As redislock_servers_parse(), with the TLS settings tls (NULL: the
 * defaults) applied to the rediss:// servers where their DSN says nothing. */
int redislock_servers_parse_tls(const char *dsn, size_t len, const redislock_tls_settings *tls,
                                redislock_servers **out, char *err, size_t errlen);
void redislock_servers_addref(redislock_servers *list);
void redislock_servers_release(redislock_servers *list);

/* As redislock_servers_parse(), but each distinct text (up to
 * REDISLOCK_PARSED_MAX of them) is parsed once per process and shared: a
 * lock made with its own servers option costs no parse after the first. */
#define REDISLOCK_PARSED_MAX 64
int redislock_servers_get(const zend_string *dsn, redislock_servers **out, char *err, size_t errlen);

/* As redislock_servers_get(), with the TLS settings applied to the list's
 * rediss:// servers (where their DSN does not say otherwise): each distinct
 * text and settings parsed once. A list without TLS is shared whatever tls. */
int redislock_servers_get_tls(const zend_string *dsn, const redislock_tls_settings *tls, redislock_servers **out,
                              char *err, size_t errlen);

/* Whether any server of the list uses TLS. */
bool redislock_servers_tls(const redislock_servers *list);

/* Process end: forgets the parsed texts. */
void redislock_servers_forget_parsed(void);

/* Appends the parsed DSN list to out (smart_str, non-persistent) in its
 * canonical form, with every password written as *** when mask is set:
 * for display, built from the parsed fields, never from the text. */
void redislock_servers_format(const redislock_servers *list, bool mask, smart_str *out);

#endif /* REDISLOCK_SERVERS_H */
