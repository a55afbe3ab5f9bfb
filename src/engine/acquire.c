/*
 * The acquire loop: an attempt, then waits through the lock's strategy
 * until the lock is ours or the wait runs out, then the sync_replicas
 * check. It calls through the strategy's table (engine/wait.h) and never
 * asks which strategy it has.
 */
#include "php_redislock.h"
#include "engine/acquire.h"
#include "engine/hold.h"
#include "engine/lock.h"
#include "engine/sync.h"
#include "engine/shared.h"
#include "engine/wait.h"
#include "engine/wait_wakeup.h"
#include "engine/wait_fair.h"
#include "client/route_pin.h"
#include "base/clock.h"
#include "base/resp.h"

/* The strategy for the lock, from its settings. */
static const redislock_wait_ops *strategy(const redislock_lock *l)
{
    if (l->settings.fair) {
        return &redislock_wait_fair;
    }
    /* Sleep on the server(s) until a release wakes us. */
    return &redislock_wait_wakeup;
}

/* A wait took the lock (a wake-up, a hand-over): checks what its lease is
 * worth. *result stays true when the lock is still ours. */
static void taken_by_wait(redislock_lock *l, const redislock_wait *w, bool *result)
{
    if (redislock_now_us() >= l->valid_until) {
        /* Handed over, but too late to be of use: pass it on. */
        redislock_lock_cleanup(l, redislock_lock_all_servers(l), redislock_lock_op_deadline(l));
        *result = false;
        return;
    }
    if (l->valid_until - redislock_now_us() < (uint64_t) l->settings.ttl * 500
        && redislock_now_us() + (uint64_t) redislock_lock_netopts(l).read_timeout * 1000 <= w->deadline) {
        /* Less than half the lease is proven (it counts from when the wait
         * began): renew it, dated from now, when the wait has time left for
         * it. An error leaves the shorter validity, which is still true; a
         * lock found lost meanwhile is waited for again. */
        redislock_lock_extend_once(l, l->settings.ttl, result, "acquire");
        *result = l->held;
    }
}

/* Before the first attempt: a lock already ours has its lease renewed
 * instead of queueing behind ourselves (*done set, with the return code);
 * a token of ours left from before goes; a fresh token is drawn. */
static int start_over(redislock_lock *l, bool *result, bool *done)
{
    *done = false;
    if (redislock_lock_holding(l)) {
        if (redislock_lock_extend_once(l, l->settings.ttl, result, "acquire") != REDISLOCK_OK || *result) {
            *done = true;
            return *result ? REDISLOCK_OK : REDISLOCK_ERR;
        }
    }
    if (redislock_lock_owned(l)) {
        redislock_lock_cleanup(l, redislock_lock_all_servers(l), redislock_lock_op_deadline(l));
    }
    /* One token for all attempts of this call: in fair mode it is also our
     * place in the queue. */
    return redislock_lock_new_token(l);
}

/* Takes the lock (see redislock_acquire_lock), replicas aside. */
static int acquire_now(redislock_lock *l, zend_long wait_ms, bool *result, void *ctx)
{
    const redislock_wait_ops *ops = strategy(l);
    redislock_wait w = {
        .deadline = redislock_now_us() + (uint64_t) wait_ms * 1000,
        .waiting = wait_ms > 0,
        .blocking = true,
        .pttl = -1,
        .cap = REDISLOCK_BACKOFF_MIN_US,
        /* the rest zero, the strategy's own part too */
    };
    bool done;
    int rc = start_over(l, result, &done);

    if (done || rc != REDISLOCK_OK) {
        return rc;
    }
    for (;;) {
        redislock_waited waited;

        if (ops->attempt(l, &w, result) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        if (*result) {
            return REDISLOCK_OK;
        }
        if (redislock_now_us() >= w.deadline) {
            ops->give_up(l, &w);
            return REDISLOCK_OK;
        }
        waited = ops->wait(l, &w, result);
        if (waited == REDISLOCK_WAIT_FAILED) {
            ops->give_up(l, &w);
            return REDISLOCK_ERR;
        }
        if (*result) {
            taken_by_wait(l, &w, result);
        }
        if (*result) {
            return REDISLOCK_OK;
        }
        if (waited == REDISLOCK_WAIT_TRIED && redislock_now_us() >= w.deadline) {
            /* The attempt that went with the wait was the last. */
            return REDISLOCK_OK;
        }
    }
}

/* Takes the lock, the grant and the check of its replication on one node. */
int redislock_acquire_lock(redislock_lock *l, zend_long wait_ms, bool *result)
{
    redislock_hold_keepalive_sync(l);
    if (l->shared && redislock_lock_holding(l)) {
        /* Our share, to promote. */
        return redislock_shared_promote(l, wait_ms, result);
    }
    return redislock_hold_grant(l, acquire_now, NULL, "acquire", wait_ms, result);
}

/* What the wake-up strategy knows of locks marked as waited for. */
void redislock_acquire_forget(void)
{
    redislock_wait_wakeup_forget();
}
