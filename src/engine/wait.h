/*
 * How a lock waits: the strategies, each in its own file behind one table
 * of operations, chosen once per lock (the way php-src's ext/random picks
 * an engine), and the acquire loop in redislock_lock.c calls through the
 * table without knowing which it has.
 *
 *   backoff  (redislock_wait.c)        plain attempts, random sleeps growing
 *                                      from 2 to 50 ms: any lock whose
 *                                      servers refuse BLPOP
 *   wakeup   (redislock_wait_wakeup.c) one server or a quorum: the marking
 *                                      attempt, BLPOP until a release and
 *                                      the next attempt, in one write to
 *                                      each server
 *   fair     (redislock_wait_fair.c)   one server, fair mode: a queue on the
 *                                      server, releases hand the lock over
 */
#ifndef REDISLOCK_WAIT_H
#define REDISLOCK_WAIT_H

#include "engine/lock.h"
#include "engine/round.h"

#define REDISLOCK_BACKOFF_MIN_US 2000     /* first retry delay ceiling */
#define REDISLOCK_BACKOFF_MAX_US 50000    /* longest retry delay */
#define REDISLOCK_BLOCK_MIN_US 100000     /* shortest BLPOP: the server's timeout granularity at hz 10 */
#define REDISLOCK_BLOCK_SLACK_MS 250      /* how late a BLPOP timeout may come back (server hz) */
/* A waiter tries again at least this often: the key can go without a
 * release (DEL, FLUSHALL, eviction), and then nobody wakes it. */
#define REDISLOCK_WAIT_RECHECK_US 1000000
#define REDISLOCK_QUEUE_STAY_MS 2000      /* fair mode: a waiter's place lasts this long unless renewed */
/* Fair mode: a release hands the lock to the next waiter with a lease of
 * at most this long, which the waiter renews to its ttl as soon as it
 * wakes; a waiter that died meanwhile holds up the others no longer. */
#define REDISLOCK_HANDOVER_MS REDISLOCK_QUEUE_STAY_MS

/* One acquire() call's waiting state. */
typedef struct redislock_wait_state {
    uint64_t deadline; /* monotonic us: the wait ends then */
    bool waiting;      /* the caller gave a wait (> 0 ms) */
    bool blocking;     /* the server can block (BLPOP); cleared when it refuses */
    bool marked;       /* wakeup: the lock is marked as waited for (attempts by script) */
    bool reload;       /* wakeup: the server lost the acquire script; the next attempt loads it */
    zend_long pttl;    /* the holder's remaining lease from the last attempt, -1 when not known */
    uint64_t blind_until; /* wakeup: the next write is the BLPOP and the attempt alone, blocking until then
                             at most (monotonic us; 0 when the write marks the lock) */
    bool tried;        /* wakeup: this call has made its first attempt */
    uint64_t cap;      /* backoff: ceiling of the next random delay */
} redislock_wait_state;

/* How a wait ended. */
typedef enum {
    REDISLOCK_WAITED,    /* woken, timed out or slept: attempt again */
    REDISLOCK_WAIT_TRIED, /* an attempt went with the wait (and failed): when time is up, that was the last */
    REDISLOCK_WAIT_FAILED /* the attempt that went with the wait got an error reply (l->err says which);
                             the caller gives up, as when the wait runs out */
} redislock_waited;

typedef struct redislock_wait_ops {
    const char *name;
    /* One attempt (or two, for a wakeup's first). *result: the lock is
     * ours. REDISLOCK_ERR when the servers' answer is unknown. */
    int (*attempt)(redislock_lock *l, redislock_wait_state *w, bool *result);
    /* Waits for a chance, until the deadline at most; may take the lock
     * (*result). */
    redislock_waited (*wait)(redislock_lock *l, redislock_wait_state *w, bool *result);
    /* The wait ran out without the lock. */
    void (*give_up)(redislock_lock *l, redislock_wait_state *w);
} redislock_wait_ops;

extern const redislock_wait_ops redislock_wait_wakeup;
extern const redislock_wait_ops redislock_wait_fair;

/* The strategy for a lock with these settings. */
const redislock_wait_ops *redislock_wait_for(const redislock_settings *s);

/* Sleeps a random while (backoff), never past the deadline. */
redislock_waited redislock_wait_sleep(redislock_wait_state *w, uint64_t at_most_us);

/* How long to block for a release: the rest of the wait, no longer than the
 * holder's lease or REDISLOCK_WAIT_RECHECK_US. 0 when that is too short for
 * the server to time (sleep instead). */
uint64_t redislock_wait_block_us(const redislock_wait_state *w);

/* Whether to block on the server now, for *block us. When not (the server
 * refused BLPOP, or too little time is left for the server to time a
 * block: it does so about every 100 ms, at hz 10), sleeps instead and
 * returns false with the sleep's outcome in *slept. */
bool redislock_wait_may_block(redislock_wait_state *w, uint64_t *block, redislock_waited *slept);

/* Sends BLPOP on list for timeout_us with the command after (fair mode's
 * claim) in the same write: the server runs it as soon as the BLPOP
 * returns, in the same turn of its event loop. *sent_at gets when it was
 * sent. Returns the BLPOP's reply (an array when it popped, nil when it
 * timed out, an error when refused) when both replies came, NULL otherwise;
 * the second reply is cmd->reply. */
const redisReply *redislock_wait_blpop(redislock_lock *l, redislock_cmd *cmd, const zend_string *list,
                                       uint64_t timeout_us, const redislock_words *after, uint64_t *sent_at);

/* What the strategies use of the lock protocol (redislock_lock.c). */
redislock_netopts redislock_lock_netopts(const redislock_lock *l);
uint64_t redislock_lock_validity_end(uint64_t start, zend_long ttl);
uint64_t redislock_lock_op_deadline(const redislock_lock *l);
/* Runs a script on every server of the lock. */
void redislock_lock_call_all(redislock_lock *l, const redislock_script *script, redislock_cmd *cmds, redislock_call *c,
                             int (*vote)(const redislock_cmd *cmd));
/* Removes our token from the servers in mask (leftovers where unanswered). */
void redislock_lock_cleanup(redislock_lock *l, uint32_t mask, uint64_t deadline);
uint32_t redislock_lock_all_servers(const redislock_lock *l);
/* Records that the lock is ours until valid_until, with its fence. */
void redislock_lock_granted(redislock_lock *l, uint64_t valid_until, zend_long fence);
/* Ends an attempt: granted when the servers said so and validity is left,
 * else failed (our token removed wherever it may sit); REDISLOCK_ERR when
 * the servers gave no answer. Frees the replies. */
int redislock_lock_attempt_end(redislock_lock *l, redislock_cmd *cmds, const redislock_tally *t, bool granted,
                               uint64_t valid_until, zend_long fence, bool *result);
/* One attempt outside fair mode on every server: SET NX PX, or the acquire
 * script when fenced or (mark_ms > 0) marking the lock as waited for that
 * long. *pttl gets the holder's lease when known. */
int redislock_lock_try(redislock_lock *l, zend_long mark_ms, bool *result, zend_long *pttl);

/* Votes on a finished attempt (see redislock_enough): its SET NX PX, or the
 * acquire script's answer. */
int redislock_vote_set(const redislock_cmd *cmd);
int redislock_vote_acquire_script(const redislock_cmd *cmd);
/* Quorum locks with fencing: writes the fence handed out back to every
 * server; true when a quorum recorded it. */
bool redislock_lock_fence_recorded(redislock_lock *l, zend_long fence);

/* The command of one attempt outside fair mode: SET key token NX PX ttl, or
 * the acquire script (scripted) when a fence is wanted or the caller will
 * wait mark_ms for a release; argv[0] and argv[1] of the script are left to
 * the sender. argv points into the struct itself, which therefore stays
 * where it was set up. */
typedef struct redislock_attempt_cmd {
    redislock_call c; /* the acquire script's call, or SET NX PX (a plain command) in its arrays */
    bool scripted;
} redislock_attempt_cmd;

/* Reads an answer of the acquire script: 1 when it granted the lock (*n the
 * fence), 0 when not (*n the holder's pttl; when the lock is being handed to
 * a woken waiter, the shortest block), -1 when it is no such answer. */
int redislock_acquire_reply(const redisReply *r, zend_long *n);
/* How long a refusal r of the marking script said the lock stays marked as
 * waited for, in ms; -1 when r is no such refusal. */
zend_long redislock_acquire_marked_ms(const redisReply *r);
/* Notes that the lock stays marked until sent_at + least_ms at least, by
 * our clock (the marker's expiry only moves later), when servers (a quorum
 * at least) said so: a release until then leaves a wake-up there. The
 * process keeps it for the lock's later objects too. */
void redislock_lock_note_marked(redislock_lock *l, zend_long least_ms, uint32_t servers, uint64_t sent_at);

void redislock_attempt_cmd_init(redislock_attempt_cmd *a, const redislock_lock *l, zend_long mark_ms);
/* Counts the answer to an attempt command. */
void redislock_attempt_tally(redislock_tally *t, redislock_cmd *cmd, const redislock_attempt_cmd *a, zend_long *fence,
                             zend_long *pttl);

#endif /* REDISLOCK_WAIT_H */
