/*
 * redislock: distributed locks on Redis for PHP.
 *
 * Module entry, version and per-process globals shared by the files of the
 * extension.
 */
#ifndef PHP_REDISLOCK_H
#define PHP_REDISLOCK_H

#include "php.h"

extern zend_module_entry redislock_module_entry;
#define phpext_redislock_ptr &redislock_module_entry

#define PHP_REDISLOCK_VERSION "0.1.0"

#include "config/settings.h"

/* Per-process counters, reported by RedisLock::stats() and phpinfo(). */
typedef struct redislock_stats {
    zend_ulong acquired;       /* acquire attempts that took the lock */
    zend_ulong contended;      /* acquire attempts that found it held elsewhere */
    zend_ulong released;       /* releases that deleted our own key */
    zend_ulong released_lost;  /* releases that found the lock expired or taken over */
    zend_ulong extended;       /* successful extends */
    zend_ulong extend_failed;  /* extends that found the lock no longer ours */
    zend_ulong auto_released;  /* locks released because their object or request ended */
    zend_ulong connects;       /* connections opened */
    zend_ulong reconnects;     /* connections reopened after being found closed or broken */
    zend_ulong script_reloads; /* scripts sent again after NOSCRIPT */
    zend_ulong waits;          /* waits for a release that ended (woken, or the holder's lease ran out) */
    zend_ulong errors;         /* RedisLockException thrown for infrastructure faults */
    zend_ulong commands;       /* commands the servers answered (connection handshakes included) */
    zend_ulong rate_limited;   /* RateLimiter::consume() calls that returned false */
    zend_ulong atomic_conflicts; /* Atomic compare-and-sets (direct or in update()) that found the value changed */
    zend_ulong atomic_retries; /* Atomic::update() attempts after the first */
    zend_ulong keepalive_renewals; /* background renewals that found the hold and reset its lease */
    zend_ulong keepalive_lost; /* background renewals that found the hold gone */
} redislock_stats;

/* An INI entry set to a value that cannot be parsed (php/ini.c). */
#define REDISLOCK_INI_BROKEN_MAX 32
/* Slots of the table of the keys an attempt last found taken (engine/seen.c). */
#define REDISLOCK_KEYS_SEEN 64
/* Slots of the table of what this process knows of semaphores' waiters
 * (engine/seen.c). */
#define REDISLOCK_SEMS_SEEN 64
typedef struct redislock_sem_seen {
    zend_ulong hash;       /* the holder key's with its servers'; 0: an empty slot */
    bool full;             /* the last attempt seen left no permit free for a waiter of limit less
                              weight up to room without a wake-up pending */
    zend_long room;
    uint64_t marked_until; /* the waiters marker lives until then at least (monotonic us) */
    uint64_t lease_end;    /* no lease the last refusal saw ends before then (monotonic us; 0: not known) */
} redislock_sem_seen;
typedef struct redislock_ini_broken {
    zend_string *name; /* persistent */
    char what[256];    /* what is wrong with it */
} redislock_ini_broken;

struct redislock_conn;
struct redislock_holds_entry;
struct redislock_leftover;

ZEND_BEGIN_MODULE_GLOBALS(redislock)
    /* The INI entries of the settings' list (config/settings.h), validated
     * and parsed when they change (php/ini.c). */
    redislock_settings defaults;
    redislock_ini_broken ini_broken[REDISLOCK_INI_BROKEN_MAX]; /* entries with a value that cannot be used */
    uint32_t nini_broken;

    /* Connection pool: persistent and request-scoped connections. */
    struct redislock_conn **conns;
    uint32_t nconns;
    uint32_t conns_size;
    uint32_t natives_seen; /* REDISLOCK_NATIVE_* some connection's server had (client/conn.c): native
                              forms of a command are put together only then */

    /* DSN lists given as a lock's servers option, parsed once each:
     * text -> redislock_servers (persistent, a reference each). */
    HashTable *parsed;

    /* How long locks stay marked as waited for, as far as this process
     * knows (engine/wait_wakeup.c): lock key and servers -> until when. */
    HashTable *marked;

    /* The hashes of the lock keys (semaphore holder keys) an attempt last
     * found taken, in slots by hash (engine/seen.c); 0: none. */
    zend_ulong keys_seen[REDISLOCK_KEYS_SEEN];

    /* What this process knows of semaphores' waiters marker and permits,
     * in slots by hash (engine/seen.c). */
    redislock_sem_seen sems_seen[REDISLOCK_SEMS_SEEN];

    /* Tokens that may sit on servers with no lock holding them. */
    struct redislock_leftover *leftovers;
    uint32_t nleftovers;

    /* Objects of this request that hold (or may hold) something on a
     * server, newest first (php/holds.c). */
    struct redislock_holds_entry *holds;

    redislock_stats stats;
ZEND_END_MODULE_GLOBALS(redislock)

ZEND_EXTERN_MODULE_GLOBALS(redislock)
#define REDISLOCK_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(redislock, v)

#if defined(ZTS) && defined(COMPILE_DL_REDISLOCK)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

#endif /* PHP_REDISLOCK_H */
