/*
 * The counting semaphore (RedisLock\Semaphore): at most a limit of permits
 * of a name held at once, each hold with its own token and its own lease,
 * on one server (direct, Sentinel or Cluster).
 *
 * On the server a semaphore held by one hold alone is a string key, the
 * holder key, holding "<token>:<weight>" with the lease as its expiry (as a
 * lock's key holds its owner's token). From a second hold on, the holds are
 * in a sorted set, each member "<token>:<weight>" scored by the end of its
 * lease on the server's clock (one permit each), the permits the weighted
 * holds take beyond their first kept in step beside it (so a hold of
 * weight 1 is its member alone), and the holder key holds '+' and outlives
 * every lease there. The waiters marker and wake-up list are the lock's
 * (engine/keys.h); all the keys are in the sorted set's cluster slot.
 * Scripts: lua/semaphore_*.lua.
 *
 * Costs: an uncontended acquire is one round trip, a plain SET NX PX of the
 * holder key on a semaphore the process last found free (engine/
 * seen.c), the acquire script otherwise (and after a SET that found
 * it taken); its release is one script running what the lock's release
 * runs (GET, DEL, PTTL). A release of a hold of weight 1 granted into the
 * sorted set whose lease surely runs is a plain ZREM and PTTL, no script
 * (a second write when it wakes a waiter); a waiter sleeps on the server (BLPOP on the wake-up list, the next
 * attempt pipelined behind it), woken by a release or a forceRelease, its
 * sleep bounded by the earliest lease the server reported so that it tries
 * again when a dead holder's permits come free. While the process knows
 * the semaphore full and marked as waited for (engine/seen.c), a waiting
 * acquire begins with that BLPOP, no refused script first: under
 * contention a section then costs the server two scripts (the attempt
 * behind the BLPOP, the release) instead of three. A hold due a release at
 * request end (auto_release) is armed for SIGTERM (client/term.h) on the
 * connection that granted or last renewed it: EVAL of the release script,
 * right wherever the hold is.
 */
#ifndef REDISLOCK_SEMAPHORE_H
#define REDISLOCK_SEMAPHORE_H

#include "engine/prim.h"
#include "engine/keys.h"
#include "engine/scripts.h"
#include "engine/keepalive.h"
#include "client/term.h"

#define REDISLOCK_SEMAPHORE_LIMIT_MAX 2147483647
#define REDISLOCK_SEMAPHORE_TOKEN_BYTES 16 /* 128 bits from the CSPRNG */
#define REDISLOCK_SEMAPHORE_TOKEN_LEN (REDISLOCK_SEMAPHORE_TOKEN_BYTES * 2)
#define REDISLOCK_SEMAPHORE_SUFFIX ":redislock-semaphore" /* after prefix + name: the holds' key */

typedef struct redislock_semaphore {
    redislock_prim prim;    /* settings, the holds' key (prim.key), the error kept */
    redislock_keys keys;    /* the holds' key and its bookkeeping keys, in its slot */
    zend_long limit;        /* this object's limit: the one its acquires count against */
    zend_long weight;       /* the permits one hold takes */
    char member[REDISLOCK_SEMAPHORE_TOKEN_LEN + 24]; /* "<token>:<weight>": the hold on the server */
    size_t member_len;      /* 0: no token yet */
    bool held;              /* granted, and not released nor found gone */
    bool placed;            /* the token may be on the server (a grant of unknown outcome, or held) */
    bool solo;              /* granted alone in the holder key (maybe moved into the holds since): its
                               release is the script */
    pid_t pid;              /* the process that wrote the token (a forked child never acts on it) */
    uint64_t valid_until;   /* end of the hold's validity, monotonic us */
    uint64_t marked_until;  /* waiters marked until then (a plain release saw it): releases take the script */
    redislock_keepalive_lease *keepalive; /* the hold's renewals in the background (keepalive), or NULL */
    redislock_term_ref term; /* its release for SIGTERM (client/term.h): armed while held, with auto_release */
} redislock_semaphore;

/* Sets up s, whose prim settings are set up (and whose prim is initialized
 * with the key prefix + name + REDISLOCK_SEMAPHORE_SUFFIX), for limit and
 * weight. */
void redislock_semaphore_init(redislock_semaphore *s, zend_long limit, zend_long weight);

/* Frees what s holds (its keys; the prim is the caller's), its release for
 * SIGTERM disarmed first. */
void redislock_semaphore_dtor(redislock_semaphore *s);

/* Whether this process wrote s's token (a forked child's inherited object
 * never acts on its parent's hold). */
bool redislock_semaphore_owned(const redislock_semaphore *s);

/* Whether this process holds s: granted here, not released nor found gone. */
bool redislock_semaphore_holding(const redislock_semaphore *s);

/* The hold is over (released, found gone, or given up): not held, its token
 * no longer placed, and nothing to write on SIGTERM. */
static inline void redislock_semaphore_over(redislock_semaphore *s)
{
    redislock_term_disarm(&s->term);
    s->held = s->placed = false;
}

/* Each returns REDISLOCK_OK with the answer, or REDISLOCK_ERR when the
 * server's answer is unknown or an error (s->prim.err says why). */

/* Takes s's weight in permits, waiting up to wait_ms for them (0: one
 * attempt); a hold of s's already is renewed. */
int redislock_semaphore_acquire(redislock_semaphore *s, zend_long wait_ms, bool *acquired);

/* Gives the hold back (waking waiters); *released: it was ours and live. */
int redislock_semaphore_release(redislock_semaphore *s, bool *released);

/* Resets the lease to ttl ms (> 0) if still ours. */
int redislock_semaphore_extend(redislock_semaphore *s, zend_long ttl, bool *extended);

/* Asks the server whether the hold is still ours. */
int redislock_semaphore_check(redislock_semaphore *s, bool *held);

/* The permits free now for s's limit. */
int redislock_semaphore_available(redislock_semaphore *s, zend_long *free);

/* Frees every hold of the name, waking the waiters; *freed: there was one. */
int redislock_semaphore_force_release(redislock_semaphore *s, bool *freed);

/* Milliseconds of validity left by the local monotonic clock; 0 when not held. */
zend_long redislock_semaphore_remaining(const redislock_semaphore *s);

/* What renewing a hold takes, for a renewer outside the object (a
 * keepalive): the script semaphore_extend.lua called with KEYS = holder,
 * holds, permits and ARGV = member, ttl (ms), which answers 1 (renewed; date the
 * validity from the send) or 0 (gone). Borrowed from s while it holds. */
typedef struct redislock_semaphore_lease {
    const redislock_script *script;
    const zend_string *holder;  /* KEYS[1] */
    const zend_string *holds;   /* KEYS[2] */
    const zend_string *permits; /* KEYS[3] */
    const char *member;         /* ARGV[1] */
    size_t member_len;
    zend_long ttl;              /* ARGV[2]: the object's ttl */
} redislock_semaphore_lease;

/* Fills *lease for s's hold; false when s holds nothing. */
bool redislock_semaphore_lease_of(redislock_semaphore *s, redislock_semaphore_lease *lease);

/* Arms the release of s's hold, just granted or renewed by this process
 * (s->pid) with the command cmd, for SIGTERM (engine/semaphore_term.c,
 * client/term.h), on cmd's connection: as a lock's (see
 * redislock_lock_term_arm()), only a hold due a release when its request
 * ends (auto_release), one kept past the request being kept past SIGTERM
 * too. The release is described from s when the signal comes: it is
 * disarmed when the hold is over (redislock_semaphore_over()), before the
 * member changes (a new token) and before the keys are freed
 * (redislock_semaphore_dtor()). */
void redislock_semaphore_term_arm(redislock_semaphore *s, const redislock_cmd *cmd);

/* {{{ Keepalive (engine/semaphore_keepalive.c, engine/keepalive.h): with the keepalive setting, a hold's
 * lease is renewed in the background from its grant (acquire() starts it,
 * on the node that granted) until it ends. */

/* Starts the renewals of the hold just granted (with keepalive on), on the
 * node that granted it: the master a Sentinel server's commands went to, the
 * node of the holds' slot on a Cluster. The lease of an earlier hold of s
 * (an acquire() that renewed it) gives way. */
void redislock_semaphore_keepalive_start(redislock_semaphore *s);

/* Takes up what the renewals found since last asked: the validity of the
 * last renewal, or the hold lost (then not held any more, and no longer
 * renewed); a hold that ended stops its renewals. The operations below
 * start with it; the binding calls it before remaining() and token(). */
void redislock_semaphore_keepalive_sync(redislock_semaphore *s);

/* Stops the renewals of s's hold (release, destruction, request end); the
 * lease then runs out at its ttl unless released. The validity of a renewal
 * not yet told is kept. */
void redislock_semaphore_keepalive_stop(redislock_semaphore *s);

/* What the binding calls: acquire, release, extend, isAcquired and the
 * object's end as above (redislock_semaphore_acquire() ...
 * redislock_semaphore_dtor()), each with the hold's renewals kept in step:
 * synced first, started at a grant, stopped at a release or the end. */
int redislock_semaphore_keepalive_acquire(redislock_semaphore *s, zend_long wait_ms, bool *acquired);
int redislock_semaphore_keepalive_release(redislock_semaphore *s, bool *released);
int redislock_semaphore_keepalive_extend(redislock_semaphore *s, zend_long ttl, bool *extended);
int redislock_semaphore_keepalive_check(redislock_semaphore *s, bool *held);
void redislock_semaphore_keepalive_dtor(redislock_semaphore *s);

/* }}} */

#endif /* REDISLOCK_SEMAPHORE_H */
