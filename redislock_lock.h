/*
 * The lock protocol, for one server or a quorum of independent masters
 * (Redlock): acquire with SET NX PX, release and extend with compare-and-act
 * scripts, and the validity of a hold on the local monotonic clock.
 */
#ifndef REDISLOCK_LOCK_H
#define REDISLOCK_LOCK_H

#include "redislock_config.h"
#include "redislock_pool.h"
#include "redislock_leftovers.h"
#include "redislock_error.h"

#define REDISLOCK_TOKEN_BYTES 16 /* 128 bits from the CSPRNG */
#define REDISLOCK_TOKEN_LEN (REDISLOCK_TOKEN_BYTES * 2)

struct redislock_wait_ops;

typedef struct redislock_lock {
    redislock_settings settings;
    const struct redislock_wait_ops *wait; /* how acquire() waits, chosen once (redislock_wait.h) */
    zend_string *key;                     /* prefix + name */
    zend_string *fence_key;               /* key + ":redislock-fence": the fence counter */
    zend_string *wait_key;                /* key + ":redislock-wait": marks that someone waits */
    zend_string *wake_key;                /* key + ":redislock-wake": a release's wake-up for one waiter */
    zend_string *wake_prefix;             /* key + ":redislock-wake:": fair mode, + token: one waiter's wake-ups */
    zend_string *queue_key;               /* key + ":redislock-queue": fair mode, waiters in arrival order */
    zend_string *queue_exp_key;           /* key + ":redislock-queue-exp": fair mode, when each place expires */
    zend_long fence;                      /* fencing number of the current hold (0 without fencing) */
    char token[REDISLOCK_TOKEN_LEN + 1];  /* hex owner token of the current attempt or hold */
    bool has_token;                       /* the token may sit on a server: clean it up at release */
    bool held;                            /* acquired, and not released nor found lost */
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

/* Each returns REDISLOCK_OK with the answer in *result, or REDISLOCK_ERR
 * when the answer is unknown (servers unreachable, timed out or replying with
 * errors so that no quorum could answer): the reason is then in l->err, or
 * an exception was already thrown (EG(exception)). */

/* Takes the lock, retrying with jittered backoff until wait_ms have passed.
 * *result is true only when a quorum granted it and validity remains. */
int redislock_lock_acquire(redislock_lock *l, zend_long wait_ms, bool *result);

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

/* Derives the lock's auxiliary keys from l->key, and picks how it waits
 * (from its settings, which are set by then). */
void redislock_lock_init_keys(redislock_lock *l);
void redislock_lock_free_keys(redislock_lock *l);

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

/* Sends one command to every server of the lock. */
void redislock_lock_send_all(redislock_lock *l, redislock_cmd *cmds, int argc, const char **argv, const size_t *lens);
/* Records why the servers gave no answer to what in l->err. */
void redislock_lock_describe_failure(redislock_lock *l, const redislock_cmd *cmds, const struct redislock_tally *t,
                                     const char *what);
/* Keeps our token on the servers in mask as leftovers (group: see
 * redislock_leftovers.h), one release command encoded once for all. */
void redislock_lock_keep_leftovers(redislock_lock *l, uint32_t mask, redislock_leftover_group *group);
/* Resets the lease to ttl ms if still ours (what: the operation, for errors). */
int redislock_lock_extend_hold(redislock_lock *l, zend_long ttl, bool *result, const char *what);

#endif /* REDISLOCK_LOCK_H */
