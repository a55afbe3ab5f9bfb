/*
 * Waiting on a quorum (Redlock over several servers): woken by releases.
 *
 * The attempts are those of waiting on one server (redislock_wait_wakeup.c:
 * a plain SET NX PX first, then the acquire script, which marks the lock as
 * waited for on every server, so that each server's release script pushes a
 * wake-up). Between them the waiter blocks in BLPOP on the wake-up list of
 * every server at once, each with the next attempt (SET NX PX) behind it in
 * the same write: each server runs that SET the moment it wakes the waiter,
 * so a release hands each server's key to the waiter that blocked there
 * first, before the releaser can take it back. No polling, no random sleeps.
 *
 * The round ends once a quorum's SETs took the lock (or cannot), and as soon
 * as one server answered and the rest had REDISLOCK_BLOCK_GRACE_US more: the
 * wake-ups of one release reach every server at once, and one not there by
 * then went to another waiter, who may be waiting for the very wake-ups
 * this one took. The BLPOPs still blocked then are closed, so that they
 * cannot take a later wake-up meant for another waiter. A waiter left with
 * the key on a minority of servers gives it back at once (the release
 * wakes the next waiter there). When a majority of the servers refuses
 * BLPOP, the rest of the wait is backoff.
 */
#include "php_redislock.h"
#include "redislock_wait.h"

static redislock_waited quorum_wait(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    uint32_t woken, refused;
    redislock_waited slept;
    uint64_t block;
    char secs[32];
    const char *argv[3] = { "BLPOP", ZSTR_VAL(REDISLOCK_LKEY(l, WAKE)), secs };
    size_t lens[3] = { 5, ZSTR_LEN(REDISLOCK_LKEY(l, WAKE)), 0 };
    int rc;

    *result = false;
    if (!redislock_wait_may_block(w, &block, &slept)) {
        return slept;
    }
    lens[2] = (size_t) snprintf(secs, sizeof(secs), "%.3f", (double) block / 1e6);
    rc = redislock_lock_try_woken(l, &(redislock_words) { 3, argv, lens }, block, result, &woken, &refused);
    if (woken > 0) {
        REDISLOCK_G(stats).waits++;
    }
    if (refused >= redislock_lock_quorum(l)) {
        w->blocking = false;
    }
    return rc == REDISLOCK_OK ? REDISLOCK_WAIT_TRIED : REDISLOCK_WAIT_FAILED;
}

static void quorum_give_up(redislock_lock *l, redislock_wait_state *w)
{
}

const redislock_wait_ops redislock_wait_quorum = {
    "quorum", redislock_wait_wakeup_attempt, quorum_wait, quorum_give_up,
};
