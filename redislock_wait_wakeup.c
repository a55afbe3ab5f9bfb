/*
 * Waiting on one server: blocked on the server until a release wakes us.
 *
 * The first attempt is a plain SET NX PX. When it finds the lock taken, the
 * next is the acquire script, which marks the lock as waited for (so the
 * release script pushes a wake-up) and returns the holder's lease. The
 * waiter then blocks in BLPOP on the lock's wake-up list, no longer than
 * that lease (or a second: see REDISLOCK_WAIT_RECHECK_US), with its next
 * attempt pipelined behind the BLPOP: the server runs it the moment the
 * BLPOP returns, before any other client, so the lock passes to the woken
 * waiter in the same round trip. A server that refuses BLPOP (an ACL
 * without it) turns the rest of the wait into backoff.
 */
#include "php_redislock.h"
#include "redislock_wait.h"

int redislock_wait_wakeup_attempt(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    uint64_t now;

    if (!w->marked) {
        int rc = redislock_lock_try(l, 0, result, &w->pttl);
        if (rc != REDISLOCK_OK || *result || !w->blocking || redislock_now_us() >= w->deadline) {
            return rc;
        }
        /* Taken, and we will wait: mark it as waited for, at once. */
        w->marked = true;
    }
    now = redislock_now_us();
    return redislock_lock_try(l, w->blocking && now < w->deadline ? (zend_long) ((w->deadline - now) / 1000) : 0,
                              result, &w->pttl);
}

/* Blocks until a release wakes us or the block ends, with the next attempt
 * (with fencing, the acquire script, which numbers the grant) pipelined
 * behind the BLPOP. */
static redislock_waited wakeup_wait(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    redislock_attempt_cmd a;
    redislock_cmd cmd;
    redislock_tally t = { 0 };
    const redisReply *popped;
    uint64_t block, sent_at;
    redislock_waited slept;
    zend_long fence = 0, pttl = -1;
    bool blocked;

    *result = false;
    if (!redislock_wait_may_block(w, &block, &slept)) {
        return slept;
    }
    redislock_attempt_cmd_init(&a, l, 0);
    if (a.scripted) {
        a.c.argv[0] = "EVALSHA";
        a.c.lens[0] = 7;
        a.c.argv[1] = redislock_script_acquire.sha;
        a.c.lens[1] = 40;
    }
    l->has_token = true;
    l->pid = redislock_pid();
    popped = redislock_wait_blpop(l, &cmd, REDISLOCK_LKEY(l, WAKE), block, a.c.argc, a.c.argv, a.c.lens, &sent_at);
    blocked = popped && popped->type != REDIS_REPLY_ERROR;

    /* The attempt ran, whatever came of the BLPOP: right away when the
     * BLPOP was refused. A server that lost the acquire script ran nothing:
     * the next attempt loads it again. */
    if (!popped) {
        redislock_tally_failure(&t, &cmd);
    } else if (a.scripted && redislock_cmd_noscript(&cmd)) {
        redislock_tally_no(&t, &cmd);
    } else {
        redislock_attempt_tally(&t, &cmd, &a, &fence, &pttl);
    }
    /* The SET ran after the BLPOP returned, so after it was sent: the lease
     * is dated from then, by our own clock, never by the server's. */
    if (redislock_lock_attempt_end(l, &cmd, &t, t.yes == 1, redislock_lock_validity_end(sent_at, l->settings.ttl),
                                   fence, result) != REDISLOCK_OK) {
        /* No answer: the next attempt finds out whether the server is gone. */
        blocked = false;
    }
    if (*result) {
        return REDISLOCK_WAIT_TRIED;
    }
    if (!blocked) {
        w->blocking = false;
        return redislock_wait_sleep(w, UINT64_MAX);
    }
    return REDISLOCK_WAIT_TRIED;
}

static void wakeup_give_up(redislock_lock *l, redislock_wait_state *w)
{
}

const redislock_wait_ops redislock_wait_wakeup = {
    "wakeup", redislock_wait_wakeup_attempt, wakeup_wait, wakeup_give_up,
};
