/*
 * DSN and option parsing: turns the `servers` DSN list, the INI entries and
 * the constructor's $options array into the settings one lock runs with.
 */
#ifndef REDISLOCK_CONFIG_H
#define REDISLOCK_CONFIG_H

#include "php.h"
#include "zend_smart_str.h"

#define REDISLOCK_OK 0
#define REDISLOCK_ERR -1

#define REDISLOCK_MAX_SERVERS 15            /* servers in one quorum */
#define REDISLOCK_TTL_MAX 2147483647        /* longest lease, in ms (about 24.8 days) */
#define REDISLOCK_TIMEOUT_MAX 3600000       /* longest connect/read timeout, in ms */
#define REDISLOCK_WAIT_MAX ((zend_long) 1 << 40) /* longer waits are cut to this (about 34 years) */
#define REDISLOCK_DEFAULT_PORT 6379
#define REDISLOCK_SYNC_REPLICAS_MAX 16      /* most replicas sync_replicas can wait for */
#define REDISLOCK_BULK_MAX 536870912        /* longest string Redis takes as an argument and keeps (its
                                               proto-max-bulk-len, 512 MB): a key, an Atomic value */

/* What one entry of a DSN list is. */
typedef enum redislock_server_kind {
    REDISLOCK_SERVER_DIRECT = 0, /* redis://, rediss://, unix://: one server */
    REDISLOCK_SERVER_SENTINEL,   /* redis-sentinel://: the master a set of Sentinels names */
    REDISLOCK_SERVER_CLUSTER,    /* redis-cluster://: a Redis Cluster */
} redislock_server_kind;

typedef struct redislock_topology redislock_topology; /* redislock_topology.h */

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
    bool tls;            /* rediss://: TLS (redislock_tls.c) */
    signed char tls_verify; /* verify the certificate and host name: 1, 0, or -1 until the settings decide */
    char *tls_ca;        /* CA bundle file; NULL: the system's trust store */
    char *tls_cert;      /* client certificate file (mutual TLS), or NULL */
    char *tls_key;       /* its private key file, or NULL */
    redislock_server_kind kind;
    redislock_topology *topo; /* Sentinel, Cluster: the seeds and what they said; else NULL */
} redislock_server;

/* The TLS settings of a lock (INI redislock.tls_* or options): what a
 * rediss:// server of its list uses unless its DSN says otherwise. */
typedef struct redislock_tls_settings {
    const char *ca, *cert, *key; /* NULL or "" when not set */
    bool verify;
} redislock_tls_settings;

/* A parsed DSN list, shared by reference between the INI setting and the
 * locks created from it. Always allocated with malloc (persistent). */
typedef struct redislock_servers {
    uint32_t refcount;
    uint32_t count;
    redislock_server server[1];
} redislock_servers;

/* Everything one lock needs to talk to its servers. */
typedef struct redislock_settings {
    redislock_servers *servers;
    zend_long ttl;
    zend_long connect_timeout;
    zend_long read_timeout;
    zend_long quorum_timeout;   /* per-server limit when there are several servers */
    bool persistent;
    bool auto_release;
    bool fencing;               /* number each grant from a per-lock counter */
    bool fair;                  /* waiters get the lock in arrival order (one server only) */
    bool tls_verify;            /* these four: the TLS settings, only while redislock_settings_init() */
    zend_string *tls_ca;        /* runs (the servers carry them after: it sets them NULL) */
    zend_string *tls_cert;
    zend_string *tls_key;
    zend_long sync_replicas;    /* acquire/extend count once this many replicas acknowledged (WAIT) */
} redislock_settings;

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

/* Whether any server of the list uses TLS; is a Redis Cluster. */
bool redislock_servers_tls(const redislock_servers *list);

/* Process end: forgets the parsed texts. */
void redislock_servers_forget_parsed(void);

/* Appends the parsed DSN list to out (smart_str, non-persistent) in its
 * canonical form, with every password written as *** when mask is set:
 * for display, built from the parsed fields, never from the text. */
void redislock_servers_format(const redislock_servers *list, bool mask, smart_str *out);
void redislock_servers_release(redislock_servers *list);

/* The settings a lock takes from the INI entries (redislock.<name>) and the
 * constructor's $options (<name>): one table serves both, so a setting's
 * name, type and range are written once. servers and prefix, strings with
 * their own parsing, are handled beside it. */
typedef enum {
    REDISLOCK_OPT_LONG, /* int in [min, max] */
    REDISLOCK_OPT_BOOL,
    REDISLOCK_OPT_STRING, /* a file name (zend_string *, borrowed while the settings are made) */
} redislock_opt_type;

typedef struct redislock_option {
    const char *name;
    redislock_opt_type type;
    zend_long min, max;
    size_t offset; /* in redislock_settings: a zend_long or a bool */
} redislock_option;

/* The table, ended by an entry whose name is NULL. */
extern const redislock_option redislock_options[];

/* The entry named name (len bytes), or NULL. */
const redislock_option *redislock_option_find(const char *name, size_t len);

/* Fills *s from the INI defaults overridden by the constructor's $options
 * (argument number arg_num), and returns the key prefix to use in *prefix.
 * On bad input throws ValueError/TypeError naming the option and returns
 * REDISLOCK_ERR, leaving nothing to free. */
int redislock_settings_init(redislock_settings *s, HashTable *options, uint32_t arg_num, zend_string **prefix);
void redislock_settings_dtor(redislock_settings *s);

#endif /* REDISLOCK_CONFIG_H */
