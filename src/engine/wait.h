/*
 * How a lock waits: each strategy in its own file behind one narrow table
 * of operations over its own opaque state (the way php-src's ext/random
 * describes an engine by a php_random_algo). The acquire loop
 * (engine/acquire.c) picks the table once per call and calls through it,
 * never knowing which it has.
 *
 *   wakeup  (wait_wakeup.c)  one server or a quorum: the marking attempt,
 *                            BLPOP until a release and the next attempt,
 *                            in one write to each server
 *   fair    (wait_fair.c)    one server, fair mode: a queue on the server,
 *                            releases hand the lock over
 *
 * Both fall back to backoff (random sleeps growing from 2 to 50 ms, here)
 * when the servers refuse BLPOP. What they share is this file: the wait's
 * common state, the backoff sleep, how long to block, and BLPOP with a
 * command pipelined behind it.
 */
#ifndef REDISLOCK_WAIT_H
#define REDISLOCK_WAIT_H

#include "engine/lock.h"
#include "engine/attempt.h"
#include "engine/round.h"

#define REDISLOCK_BACKOFF_MIN_US 2000     /* first retry delay ceiling */
#define REDISLOCK_BACKOFF_MAX_US 50000    /* longest retry delay */
#define REDISLOCK_BLOCK_SLACK_MS 250      /* how late a BLPOP timeout may come back (server hz) */
/* A waiter tries again at least this often: the key can go without a
 * release (DEL, FLUSHALL, eviction), and then nobody wakes it. */
#define REDISLOCK_WAIT_RECHECK_US 1000000

/* Room for a strategy's own state during one acquire() call. */
#define REDISLOCK_WAIT_OWN_ROOM 32

/* One acquire() call's wait: what the loop and the helpers below share,
 * and the strategy's own part (opaque to all but the strategy). */
typedef struct redislock_wait {
    uint64_t deadline;    /* monotonic us: the wait ends then */
    bool waiting;         /* the caller gave a wait (> 0 ms) */
    bool blocking;        /* the server can block (BLPOP); cleared when it refuses */
    zend_long pttl;       /* the holder's remaining lease from the last attempt, -1 when not known */
    uint64_t block_until; /* a block ends by then at the latest (monotonic us; 0: no such limit) */
    uint64_t cap;         /* backoff: ceiling of the next random delay */
    union {
        uint64_t align;
        void *ptr;
        unsigned char bytes[REDISLOCK_WAIT_OWN_ROOM];
    } own;                /* the strategy's: all zero when the call starts */
} redislock_wait;

/* How a wait ended. */
typedef enum {
    REDISLOCK_WAITED,    /* woken, timed out or slept: attempt again */
    REDISLOCK_WAIT_TRIED, /* an attempt went with the wait (and failed): when time is up, that was the last */
    REDISLOCK_WAIT_FAILED /* the attempt that went with the wait got an error reply (l->err says which);
                             the caller gives up, as when the wait runs out */
} redislock_waited;

/* A strategy. Its state is its own: w->own for the call (zeroed when the
 * call starts, so that no set-up is needed), and l->wait_kept
 * (REDISLOCK_LOCK_WAIT_ROOM bytes, zeroed with the object) for what it keeps
 * of a lock from one call to the next. */
typedef struct redislock_wait_ops {
    const char *name;
    /* One attempt (or two, for a wakeup's first). *result: the lock is
     * ours. REDISLOCK_ERR when the servers' answer is unknown. */
    int (*attempt)(redislock_lock *l, redislock_wait *w, bool *result);
    /* Waits for a chance, until the deadline at most; may take the lock
     * (*result). */
    redislock_waited (*wait)(redislock_lock *l, redislock_wait *w, bool *result);
    /* The wait ran out without the lock. */
    void (*give_up)(redislock_lock *l, redislock_wait *w);
} redislock_wait_ops;

/* A strategy's own state of type t fits in room (checked at compile time). */
#define REDISLOCK_WAIT_FITS(t, room) _Static_assert(sizeof(t) <= sizeof(room), #t " does not fit")

/* Sleeps a random while (backoff), never past the deadline nor at_most_us. */
redislock_waited redislock_wait_sleep(redislock_wait *w, uint64_t at_most_us);

/* How long to block for a release: the rest of the wait, no longer than the
 * holder's lease, w->block_until or REDISLOCK_WAIT_RECHECK_US. */
uint64_t redislock_wait_block_us(const redislock_wait *w);

/* Whether to block on the server now, for *block us. When not (the server
 * refused BLPOP, or too little time is left for the server to time a
 * block: it does so about every 100 ms, at hz 10), sleeps instead and
 * returns false with the sleep's outcome in *slept. */
bool redislock_wait_may_block(redislock_wait *w, uint64_t *block, redislock_waited *slept);

/* Sends BLPOP on list for timeout_us with the command after (fair mode's
 * claim) in the same write: the server runs it as soon as the BLPOP
 * returns, in the same turn of its event loop. *sent_at gets when it was
 * sent. Returns the BLPOP's reply (an array when it popped, nil when it
 * timed out, an error when refused) when both replies came, NULL otherwise;
 * the second reply is cmd->reply. */
const redisReply *redislock_wait_blpop(redislock_lock *l, redislock_cmd *cmd, const zend_string *list,
                                       uint64_t timeout_us, const redislock_words *after, uint64_t *sent_at);

#endif /* REDISLOCK_WAIT_H */
