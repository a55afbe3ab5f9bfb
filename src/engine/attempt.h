/*
 * One attempt to take the lock outside fair mode, on every server of the
 * lock at once: SET key token NX PX ttl, or the acquire script
 * (lua/acquire.lua) when a fence is wanted or the caller will wait and
 * marks the lock as waited for; what the servers' replies mean; and how an
 * attempt ends, for every strategy: granted, or our token removed wherever
 * it may sit.
 */
#ifndef REDISLOCK_ATTEMPT_H
#define REDISLOCK_ATTEMPT_H

#include "engine/lock.h"
#include "engine/round.h"

/* The shortest BLPOP: the server's timeout granularity at hz 10. A refusal
 * of a lock being handed to a woken waiter says to block this long. */
#define REDISLOCK_BLOCK_MIN_US 100000

/* The command of one attempt: SET key token NX PX ttl, or the acquire
 * script (scripted); argv[0] and argv[1] of the script are left to the
 * sender. argv points into the struct itself, which therefore stays where
 * it was set up. */
typedef struct redislock_attempt_cmd {
    redislock_call c; /* the acquire script's call, or SET NX PX (a plain command) in its arrays */
    bool scripted;
} redislock_attempt_cmd;

/* What an attempt (redislock_attempt_try()) saw besides its outcome. */
typedef struct redislock_attempt_seen {
    zend_long pttl;      /* the holder's remaining lease, -1 when not known */
    zend_long marked_ms; /* marking: the least time the refusals said the lock stays marked, -1 when none */
    uint32_t marked_by;  /* how many servers said so */
    uint64_t sent_at;    /* when the attempt left (monotonic us) */
} redislock_attempt_seen;

/* Sets up a's command: the acquire script when fenced or (mark_ms > 0)
 * marking the lock as waited for that long, SET NX PX otherwise. */
void redislock_attempt_init(redislock_attempt_cmd *a, const redislock_lock *l, zend_long mark_ms);

/* One attempt on every server with a's command of mark_ms (see above).
 * *result: the lock is ours. REDISLOCK_ERR when the servers' answer is
 * unknown (the reason in l->err). */
int redislock_attempt_try(redislock_lock *l, zend_long mark_ms, bool *result, redislock_attempt_seen *seen);

/* Reads an answer of the acquire script: 1 when it granted the lock (*n the
 * fence), 0 when not (*n the holder's pttl; when the lock is being handed to
 * a woken waiter, the shortest block in ms), -1 when it is no such answer. */
int redislock_attempt_reply(const redisReply *r, zend_long *n);
/* How long a refusal r of the marking script said the lock stays marked as
 * waited for, in ms; -1 when r is no such refusal. */
zend_long redislock_attempt_marked_ms(const redisReply *r);

/* Makes c the plain SET key value NX PX ttl of lock l (value: its token, or
 * a share's '*' and token); value stays where it is until sent. */
void redislock_attempt_set_nx(redislock_call *c, const redislock_lock *l, const char *value, size_t len);

/* Votes on a finished attempt (see redislock_enough): its SET NX PX, or the
 * acquire script's answer. */
int redislock_attempt_vote_set(const redislock_cmd *cmd);
int redislock_attempt_vote_script(const redislock_cmd *cmd);
/* Counts the answer to a's command into t: the highest fence granted into
 * *fence, the longest lease of a holder into *pttl. */
void redislock_attempt_tally(redislock_tally *t, redislock_cmd *cmd, const redislock_attempt_cmd *a, zend_long *fence,
                             zend_long *pttl);

/* Quorum locks with fencing: writes the fence handed out back to every
 * server; true when a quorum recorded it. */
bool redislock_attempt_fence_recorded(redislock_lock *l, zend_long fence);

/* Records that the lock is ours until valid_until, with its fence, granted
 * over the connections of the n commands cmds (those that answered), where
 * its release goes on SIGTERM (redislock_lock_term_arm()). */
void redislock_attempt_granted(redislock_lock *l, uint64_t valid_until, zend_long fence, const redislock_cmd *cmds,
                               uint32_t n);
/* Ends an attempt: granted when the servers said so (granted) and validity
 * is left, else failed (our token removed wherever it may sit);
 * REDISLOCK_ERR when the servers gave no answer. Frees the replies. */
int redislock_attempt_end(redislock_lock *l, redislock_cmd *cmds, const redislock_tally *t, bool granted,
                          uint64_t valid_until, zend_long fence, bool *result);

#endif /* REDISLOCK_ATTEMPT_H */
