/*
 * The settings of RedisLock and of the primitives beside it, written once:
 * the list below gives each its name (the constructor's option, and the INI
 * entry after "redislock."), its type, its range and its INI default. From
 * it come the fields of redislock_settings, the table that checks a value
 * (here), the INI entries (php/ini.h) and the reading of the constructor's
 * $options (php/options.c). Adding a setting is one line in the list.
 *
 * Nothing here throws or reads a PHP value: a check reports what is wrong
 * as a status and a message, and the PHP binding decides what to raise.
 */
#ifndef REDISLOCK_SETTINGS_H
#define REDISLOCK_SETTINGS_H

#include <string.h>

#include "php.h"
#include "base/status.h"
#include "config/servers.h"
#include "config/tls_settings.h"

#define REDISLOCK_TTL_MAX 2147483647        /* longest lease, in ms (about 24.8 days) */
#define REDISLOCK_TIMEOUT_MAX 3600000       /* longest connect/read timeout, in ms */
#define REDISLOCK_WAIT_MAX ((zend_long) 1 << 40) /* longer waits are cut to this (about 34 years) */
#define REDISLOCK_SYNC_REPLICAS_MAX 16      /* most replicas sync_replicas can wait for */
#define REDISLOCK_BULK_MAX 536870912        /* longest string Redis takes as an argument and keeps (its
                                               proto-max-bulk-len, 512 MB): a key, an Atomic value */

/* X(name, type, min, max, INI default), in phpinfo()'s order. The types:
 *   LONG    an int in [min, max]                                 zend_long
 *   BOOL    a bool (INI: 1/0, on/off, yes/no, true/false)        bool
 *   PATH    a file name: a string without NUL bytes ("": none)   zend_string *
 *   STRING  any string                                           zend_string *
 *   DSN     a DSN list, parsed once (config/servers.h)           redislock_servers *
 * The strings are borrowed while a lock's settings are made, and NULL in
 * them after: the servers carry the TLS files, the key prefix is handed out.
 */
#define REDISLOCK_SETTINGS(X) \
    X(servers,         DSN,    0, 0,                           "redis://127.0.0.1:6379") \
    X(prefix,          STRING, 0, 0,                           "") /* of every key */ \
    X(ttl,             LONG,   1, REDISLOCK_TTL_MAX,           "10000") \
    X(connect_timeout, LONG,   1, REDISLOCK_TIMEOUT_MAX,       "1000") \
    X(read_timeout,    LONG,   1, REDISLOCK_TIMEOUT_MAX,       "1000") \
    X(quorum_timeout,  LONG,   1, REDISLOCK_TIMEOUT_MAX,       "100") /* per server, when there are several */ \
    X(persistent,      BOOL,   0, 1,                           "1") \
    X(auto_release,    BOOL,   0, 1,                           "1") \
    X(fencing,         BOOL,   0, 1,                           "0") /* number each grant from a per-lock counter */ \
    X(fair,            BOOL,   0, 1,                           "0") /* arrival order (one server only) */ \
    X(tls_ca,          PATH,   0, 0,                           "") \
    X(tls_cert,        PATH,   0, 0,                           "") \
    X(tls_key,         PATH,   0, 0,                           "") \
    X(tls_verify,      BOOL,   0, 1,                           "1") \
    X(sync_replicas,   LONG,   0, REDISLOCK_SYNC_REPLICAS_MAX, "0") /* replicas to acknowledge (WAIT) */ \
    X(keepalive,       BOOL,   0, 1,                           "0") /* renew the lease in the background */ \
    X(max_hold,        LONG,   1, REDISLOCK_TTL_MAX,           "3600000") /* no renewal past this after a grant */ \
    X(native_commands, BOOL,   0, 1,                           "1") /* where the server has them (engine/native.h) */

/* What a value of a setting is, to check it and store it. */
typedef enum redislock_setting_type {
    REDISLOCK_SETTING_LONG,   /* zend_long in [min, max] */
    REDISLOCK_SETTING_BOOL,   /* bool */
    REDISLOCK_SETTING_STRING, /* zend_string *, that check (if any) accepts */
    REDISLOCK_SETTING_DSN,    /* a text parsed into a redislock_servers * */
} redislock_setting_type;

/* Checks a string value [s, s+len): REDISLOCK_OK, or REDISLOCK_ERR with
 * what it must be in err ("must be ..."). */
typedef int (*redislock_setting_check)(const char *s, size_t len, char *err, size_t errlen);

/* One setting of a list (this one, or ZooKeeperLock's): a table of them
 * ends with an entry whose name is NULL. */
typedef struct redislock_setting {
    const char *name;
    size_t name_len;
    redislock_setting_type type;
    redislock_setting_check check; /* STRING: what a value must be, or NULL (anything) */
    zend_long min, max;            /* LONG */
    size_t offset;                 /* of the value in the settings struct */
} redislock_setting;

/* The C type and the table entry of each type of the lists. */
#define REDISLOCK_SETTING_C_LONG zend_long
#define REDISLOCK_SETTING_C_BOOL bool
#define REDISLOCK_SETTING_C_PATH zend_string *
#define REDISLOCK_SETTING_C_STRING zend_string *
#define REDISLOCK_SETTING_C_DSN redislock_servers *
#define REDISLOCK_SETTING_KIND_LONG REDISLOCK_SETTING_LONG, NULL
#define REDISLOCK_SETTING_KIND_BOOL REDISLOCK_SETTING_BOOL, NULL
#define REDISLOCK_SETTING_KIND_PATH REDISLOCK_SETTING_STRING, redislock_settings_check_path
#define REDISLOCK_SETTING_KIND_STRING REDISLOCK_SETTING_STRING, NULL
#define REDISLOCK_SETTING_KIND_DSN REDISLOCK_SETTING_DSN, NULL

/* The field of a setting of type t; its table entry in struct st. */
#define REDISLOCK_SETTING_FIELD(n, t) REDISLOCK_SETTING_C_##t n;
#define REDISLOCK_SETTING_ENTRY(st, n, t, lo, hi) \
    { #n, sizeof(#n) - 1, REDISLOCK_SETTING_KIND_##t, lo, hi, XtOffsetOf(st, n) },

/* Where the value of setting opt is in the settings struct at base. */
#define REDISLOCK_SETTING_AT(base, opt) ((void *) ((char *) (base) + (opt)->offset))

/* Everything one lock needs to talk to its servers: a field a setting. */
#define REDISLOCK_SETTINGS_FIELD(n, t, lo, hi, def) REDISLOCK_SETTING_FIELD(n, t)
typedef struct redislock_settings {
    REDISLOCK_SETTINGS(REDISLOCK_SETTINGS_FIELD)
} redislock_settings;

/* The table of the list, ended by an entry whose name is NULL. */
extern const redislock_setting redislock_settings_table[];

/* The entry of table named name (len bytes), or NULL. */
static inline const redislock_setting *redislock_settings_find(const redislock_setting *table, const char *name,
                                                               size_t len)
{
    for (const redislock_setting *o = table; o->name; o++) {
        if (o->name_len == len && memcmp(o->name, name, len) == 0) {
            return o;
        }
    }
    return NULL;
}

/* Writes what a value of opt must be into err ("must be between 1 and
 * 3600000"); returns REDISLOCK_ERR. */
int redislock_settings_range_error(const redislock_setting *opt, char *err, size_t errlen);

/* Checks a value of opt (an int; a string): REDISLOCK_OK, or REDISLOCK_ERR
 * with what it must be in err. */
static inline int redislock_settings_check_long(const redislock_setting *opt, zend_long v, char *err, size_t errlen)
{
    return v < opt->min || v > opt->max ? redislock_settings_range_error(opt, err, errlen) : REDISLOCK_OK;
}

static inline int redislock_settings_check_string(const redislock_setting *opt, const char *s, size_t len, char *err,
                                                  size_t errlen)
{
    return opt->check ? opt->check(s, len, err, errlen) : REDISLOCK_OK;
}

/* The check of PATH: no NUL byte. */
int redislock_settings_check_path(const char *s, size_t len, char *err, size_t errlen);

/* Reads the text of an INI value. An int in [min, max]: decimal digits
 * only (never octal), white space around them allowed, or with strict
 * none, and no more digits than max has. A bool: 1, on, yes, true; 0, off,
 * no, false or nothing, in any case, white space around allowed. On
 * failure REDISLOCK_ERR with what it must be in err. */
int redislock_settings_parse_long(const char *s, size_t len, zend_long min, zend_long max, bool strict,
                                  zend_long *out, char *err, size_t errlen);
int redislock_settings_parse_bool(const char *s, size_t len, bool *out, char *err, size_t errlen);

/* The TLS settings of s, for its rediss:// servers. */
void redislock_settings_tls(const redislock_settings *s, redislock_tls_settings *tls);

/* Releases what made settings hold (their servers). */
void redislock_settings_dtor(redislock_settings *s);

#endif /* REDISLOCK_SETTINGS_H */
