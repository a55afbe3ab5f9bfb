/*
 * Keepalive leases: holds whose lease the extension renews by itself, from
 * a thread of its own with connections of its own, while no PHP code runs.
 *
 * Generic over what is held: a class hands over a spec (per server the
 * target to reach, the script that renews, its KEYS and ARGV, and how many
 * servers must renew), gets a lease back, and asks it what happened
 * (renewed when, lost or not) whenever it looks at its hold; it stops the
 * lease at release, destruction and request end. The thread renews every
 * ttl/3 from the grant, treats a reply it cannot get as a tick to try again,
 * a majority of "gone" replies as the hold lost, and stops by itself
 * max_hold after the grant.
 *
 * One registry per process, guarded by its mutex (ZTS: every PHP thread
 * shares it). The thread is started the first time a lease is added, and
 * sleeps on a condition variable, without waking, while nothing is held.
 * A forked child never touches its parent's registry (whose mutex the
 * parent's thread may have held at fork time, and whose thread did not
 * survive the fork): it starts one of its own when it first needs it, and
 * the leases inherited from the parent are never renewed nor touched.
 */
#ifndef REDISLOCK_KEEPALIVE_H
#define REDISLOCK_KEEPALIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "client/keepalive_conn.h"
#include "config/servers.h"

#define REDISLOCK_KEEPALIVE_ARGS_MAX 8 /* KEYS and ARGV of a renewal script, together */

/* How a server answered a renewal (the spec's judge reads its reply). */
typedef enum redislock_keepalive_answer {
    REDISLOCK_KEEPALIVE_RENEWED, /* the hold was there and its lease is reset */
    REDISLOCK_KEEPALIVE_GONE,    /* the hold is not there any more */
    REDISLOCK_KEEPALIVE_UNKNOWN, /* no answer, or one that says neither: try again at the next tick */
} redislock_keepalive_answer;

/* What a renewal is, given by the class of the hold. Everything is copied
 * by redislock_keepalive_start(), except the script's sha and body (static,
 * embedded) and the targets (taken over). */
typedef struct redislock_keepalive_spec {
    uint32_t count;                     /* servers */
    uint32_t quorum;                    /* renewals a tick needs (1 of 1; a majority of a quorum list) */
    redislock_keepalive_conn_target *targets[REDISLOCK_MAX_SERVERS]; /* taken over (NULL: not reachable) */
    const char *sha, *body;             /* the renewal script (EVALSHA, EVAL after NOSCRIPT) */
    size_t body_len;
    int nkeys, argc;                    /* KEYS then ARGV, in argv: argc in all */
    const char *argv[REDISLOCK_KEEPALIVE_ARGS_MAX];
    size_t lens[REDISLOCK_KEEPALIVE_ARGS_MAX];
    /* The answer of one server's integer reply (NULL: 1 renewed, 0 gone). */
    redislock_keepalive_answer (*judge)(long long reply);
    uint64_t ttl_ms;                    /* the lease a renewal sets: renewals every ttl/3 */
    uint64_t max_hold_ms;               /* no renewal past this long after the grant */
    uint64_t granted;                   /* when the hold was granted (monotonic us: its request's start) */
    const void *owner;                  /* whose counters its renewals go to (redislock_keepalive_collect()) */
} redislock_keepalive_spec;

typedef struct redislock_keepalive_lease redislock_keepalive_lease;

/* What a lease has to tell its holder (redislock_keepalive_poll()). */
typedef struct redislock_keepalive_news {
    bool lost;             /* a renewal found the hold gone: renewals have stopped */
    uint64_t renewed_at;   /* when the last renewal left (monotonic us); 0: none since the last poll */
    uint32_t renewals;     /* renewals not yet told (for the counters) */
    uint32_t losses;       /* 1 when the loss was not yet told (for the counters) */
} redislock_keepalive_news;

/* The target a renewal of key (len bytes) on srv goes to, from inside the
 * route pin of the operation that granted the hold: srv itself, the master
 * the operation was pinned to (Sentinel), the node of key's slot (Cluster);
 * NULL when not known (or out of memory). Timeouts in ms. */
redislock_keepalive_conn_target *redislock_keepalive_target(const redislock_server *srv, const char *key, size_t len,
                                                            int connect_timeout, int read_timeout);

/* Starts renewing the hold of spec (the targets are the lease's now, even
 * on failure). NULL when that could not be set up (no memory, no thread):
 * the hold is then kept as without keepalive. */
redislock_keepalive_lease *redislock_keepalive_start(redislock_keepalive_spec *spec);

/* What happened to the lease since the last poll. A lease of another
 * process (the parent of a forked child) has no news. */
void redislock_keepalive_poll(redislock_keepalive_lease *lease, redislock_keepalive_news *news);

/* Stops renewing and forgets the lease (a renewal already under way may
 * still land: at most one lease of ttl more); news gets what was not yet
 * told (may be NULL). The lease of another process is only forgotten. */
void redislock_keepalive_stop(redislock_keepalive_lease *lease, redislock_keepalive_news *news);

/* The renewals not yet told of every lease started from this PHP thread
 * (owner: the address of something of the thread's own), and whether any
 * was lost; they count as told afterwards. */
void redislock_keepalive_collect(const void *owner, uint32_t *renewals, uint32_t *lost);

/* Whether this process runs the keepalive thread now (tests, phpinfo). */
bool redislock_keepalive_running(void);

/* Module end: stops the thread (waiting for a renewal under way) and frees
 * the process's leases. */
void redislock_keepalive_shutdown(void);

#endif /* REDISLOCK_KEEPALIVE_H */
