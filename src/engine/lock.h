/*
 * The lock protocol, for one server or a quorum of independent masters
 * (Redlock): acquire with SET NX PX, release and extend with compare-and-act
 * scripts, and the validity of a hold on the local monotonic clock.
 */
#ifndef REDISLOCK_LOCK_H
#define REDISLOCK_LOCK_H

#include "config/config.h"
#include "client/exec.h"
#include "engine/leftovers.h"
#include "base/error.h"
#include "engine/keys.h"
#include "engine/round.h"
#include "base/process.h"

#define REDISLOCK_TOKEN_BYTES 16 /* 128 bits from the CSPRNG */
#define REDISLOCK_TOKEN_LEN (REDISLOCK_TOKEN_BYTES * 2)
#define REDISLOCK_WAITER_ID_BYTES 8
#define REDISLOCK_WAITER_ID_LEN (REDISLOCK_WAITER_ID_BYTES * 2)

struct redislock_wait_ops;

typedef struct redislock_lock {
    redislock_settings settings;
    const struct redislock_wait_ops *wait; /* how acquire() waits, chosen once (redislock_wait.h) */
    redislock_keys keys;                  /* the lock's key and its bookkeeping keys (redislock_keys.h) */
    zend_long fence;                      /* fencing number of the current hold (0 without fencing) */
    char token[REDISLOCK_TOKEN_LEN + 1];  /* hex owner token of the current attempt or hold */
    char waiter_id[REDISLOCK_WAITER_ID_LEN + 1]; /* hex, random, names our own wake-up list ("" until a wait of
                                                    this token needs it) */
    bool has_token;                       /* the token may sit on a server: clean it up at release */
    bool held;                            /* acquired, and not released nor found lost */
    uint32_t placed;                      /* servers our token may be on (a round that left some out) */
    int fair_slot;                        /* fair mode: our wake-up list while queued, -1 before */
    bool waited_before;                   /* an acquire() of this object had to wait */
    bool script_seen;                     /* the server ran the acquire script for us: it has it cached */
    uint64_t marked_until;                /* the lock is known to be marked as waited for until then
                                             (monotonic microseconds; 0 when not known) */
    pid_t pid;                            /* process that wrote the token */
    uint64_t valid_until;                 /* end of validity, monotonic microseconds */
    redislock_error err;                  /* what went wrong, after REDISLOCK_ERR */
} redislock_lock;

/* Whether this process wrote the lock's current token (a forked child
 * never acts on its parent's hold). */
static inline bool redislock_lock_owned(const redislock_lock *l)
{
    return l->has_token && l->pid == redislock_pid();
}

/* Whether this process holds the lock: acquired here, and not released nor
 * found lost. A forked child's inherited object never does (it says so in
 * every accessor); the parent's hold is untouched. */
static inline bool redislock_lock_holding(const redislock_lock *l)
{
    return l->held && redislock_lock_owned(l);
}

/* Each returns REDISLOCK_OK with the answer in *result, or REDISLOCK_ERR
 * when the answer is unknown (servers unreachable, timed out or replying with
 * errors so that no quorum could answer): the reason is then in l->err, or
 * an exception was already thrown (EG(exception)). */

/* Takes the lock, retrying with jittered backoff until wait_ms have passed.
 * *result is true only when a quorum granted it and validity remains. */
int redislock_lock_acquire(redislock_lock *l, zend_long wait_ms, bool *result);

/* sync_replicas (redislock_sync.c): after a grant (*result true), waits
 * for the replicas to acknowledge it; when too few did, releases the hold,
 * sets *result false and l->err, and returns REDISLOCK_ERR. */
int redislock_lock_sync(redislock_lock *l, const char *what, bool *result);

/* Deletes our token everywhere; *result tells whether a quorum still held it. */
int redislock_lock_release(redislock_lock *l, bool *result);

/* Resets the lease to ttl ms on every server that still has our token. */
int redislock_lock_extend(redislock_lock *l, zend_long ttl, bool *result);

/* Asks the servers whether a quorum still has our token. */
int redislock_lock_check(redislock_lock *l, bool *result);

/* Gives up the lock's token without waiting for an answer: its release
 * goes out later as a leftover on every server (see redislock_leftovers.h),
 * and with counted set, counts as an auto-release once it deleted the token
 * on a quorum. */
void redislock_lock_abandon(redislock_lock *l, bool counted);

/* Frees what the process knows of how long locks stay marked as waited
 * for (at module shutdown). */
void redislock_marked_forget(void);

/* Sets up the lock prefix + name: its keys, and how it waits (from its
 * settings, which are set by then). */
void redislock_lock_init(redislock_lock *l, const zend_string *prefix, const zend_string *name);
void redislock_lock_dtor(redislock_lock *l);

/* A key of the lock (built on first use: the cache is not part of the
 * lock's state, so a const lock may fill it). */
static inline zend_string *redislock_lock_key(const redislock_lock *l, redislock_key_kind kind)
{
    return redislock_keys_get((redislock_keys *) &l->keys, kind);
}

/* The lock's key of a kind named by its last word: REDISLOCK_LKEY(l, FENCE). */
#define REDISLOCK_LKEY(l, kind) redislock_lock_key((l), REDISLOCK_KEY_##kind)

/* Takes up a hold made earlier with token (RedisLock::restore()): held,
 * with no validity known until extend() or check() dates it. */
void redislock_lock_adopt(redislock_lock *l, const char *token);

/* Deletes the lock's key whoever holds it, waking its waiters as a release
 * does; *result tells whether a key was deleted. */
int redislock_lock_force_release(redislock_lock *l, bool *result);

/* Milliseconds of validity left on the local monotonic clock, 0 when not held. */
zend_long redislock_lock_remaining(const redislock_lock *l);

/* For the protocol's own files (redislock_lock.c, redislock_hold.c, the
 * wait strategies). */

/* How many of the lock's servers make a quorum (1 of 1). */
static inline uint32_t redislock_lock_quorum(const redislock_lock *l)
{
    return l->settings.servers->count / 2 + 1;
}

struct redislock_tally;

/* Starts the script call c with the lock's keys of the n kinds given, in
 * that order (KEYS), then, with owner set, the arguments every lock script
 * takes first: token, ttl, fenced ('1' or '0'). */
void redislock_lock_call_init(redislock_call *c, const redislock_lock *l, const redislock_key_kind *kinds, int n,
                              bool owner);

/* The keys of the fair scripts acquire_fair.lua and release_fair.lua. */
#define REDISLOCK_FAIR_KEYS (6 + REDISLOCK_WAKE_SLOTS)
extern const redislock_key_kind redislock_fair_keys[REDISLOCK_FAIR_KEYS];

/* With several servers and a vote, lets a round over all the lock's
 * servers (cmds) end as soon as its outcome is known: sets o->enough to e. */
void redislock_lock_decide_early(const redislock_lock *l, redislock_netopts *o, redislock_enough *e,
                                 const redislock_cmd *cmds, int (*vote)(const redislock_cmd *cmd));
/* Sends one command to every server of the lock; with a vote, the round
 * ends once the outcome is known (redislock_lock_decide_early()). */
void redislock_lock_send_all(redislock_lock *l, redislock_cmd *cmds, int argc, const char **argv, const size_t *lens,
                             int (*vote)(const redislock_cmd *cmd));
/* Records why the servers gave no answer to what in l->err. */
void redislock_lock_describe_failure(redislock_lock *l, const redislock_cmd *cmds, const struct redislock_tally *t,
                                     const char *what);
/* Keeps our token on the servers in mask as leftovers (group: see
 * redislock_leftovers.h), one release command encoded once for all. */
void redislock_lock_keep_leftovers(redislock_lock *l, uint32_t mask, redislock_leftover_group *group);
/* Resets the lease to ttl ms if still ours (what: the operation, for errors). */
int redislock_lock_extend_hold(redislock_lock *l, zend_long ttl, bool *result, const char *what);

#endif /* REDISLOCK_LOCK_H */
