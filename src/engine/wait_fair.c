/*
 * Fair mode (one server): waiters get the lock in arrival order.
 *
 * A waiter's attempt is acquire_fair.lua, which takes the lock only when it
 * is free and nobody queued earlier is still waiting, and otherwise joins
 * the queue (or renews its place, which lasts REDISLOCK_QUEUE_STAY_MS). A
 * release (release_fair.lua) hands the lock straight to the head of the
 * queue with a short lease, names it in the hand-over key and pushes one
 * wake-up onto the lock's wake-up list, where the waiters block. Behind its
 * BLPOP each waiter pipelines claim_fair.lua: the new holder renews the
 * lease to its ttl and holds the lock with no further attempt; any other
 * waiter that popped the wake-up puts it back for the next one, on the
 * server, with no round trip. A server that refuses BLPOP turns the rest of
 * the wait into backoff.
 */
#include "php_redislock.h"
#include "engine/wait_fair.h"
#include "base/clock.h"
#include "engine/wait.h"
#include "engine/attempt.h"
#include "engine/lock.h"

/* One attempt by acquire_fair.lua. A caller that will wait joins the queue,
 * or renews its place. */
static int fair_attempt(redislock_lock *l, redislock_wait *w, bool *result)
{
    redislock_cmd cmds[1];
    redislock_tally t = { 0 };
    redislock_call c;
    zend_long fence = 0, lease = l->settings.ttl;
    uint64_t start = redislock_now_us();
    bool waiting = w->blocking && start < w->deadline && (w->deadline - start) / 1000 > 0;
    redisReply *r;

    *result = false;
    w->pttl = -1;
    l->has_token = true;
    l->pid = redislock_process_pid();
    redislock_lock_call_init(&c, l, redislock_lock_fair_keys, REDISLOCK_FAIR_KEYS, true);
    redislock_call_long(&c, waiting ? REDISLOCK_QUEUE_STAY_MS : 0);
    redislock_call_long(&c, l->fair_slot);
    redislock_lock_call_all(l, &redislock_script_acquire_fair, cmds, &c, NULL);
    r = cmds[0].reply;
    /* {1, fence, lease ms} when the lock is ours, {0, the holder's pttl,
     * our wake-up slot} when not. */
    if (cmds[0].status == REDISLOCK_CMD_OK && r->type == REDIS_REPLY_ARRAY && r->elements == 3
        && r->element[0]->type == REDIS_REPLY_INTEGER && r->element[1]->type == REDIS_REPLY_INTEGER
        && r->element[2]->type == REDIS_REPLY_INTEGER) {
        if (r->element[0]->integer == 1) {
            redislock_tally_yes(&t, &cmds[0]);
            fence = (zend_long) r->element[1]->integer;
            lease = MIN((zend_long) r->element[2]->integer, l->settings.ttl);
        } else {
            redislock_tally_no(&t, &cmds[0]);
            w->pttl = (zend_long) r->element[1]->integer;
            if (r->element[2]->integer >= 0 && r->element[2]->integer < REDISLOCK_WAKE_SLOTS) {
                l->fair_slot = (int) r->element[2]->integer;
            }
        }
    } else {
        redislock_tally_failure(&t, &cmds[0]);
    }
    return redislock_attempt_end(l, cmds, &t, t.yes == 1, redislock_lock_validity_end(start, lease), fence, result);
}

/* claim_fair.lua's call: KEYS = lock, fence counter, our wake-up list,
 * hand-over marker; ARGV = token, ttl, fenced, our slot. */
static void claim_call_init(redislock_call *c, const redislock_lock *l)
{
    const redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, REDISLOCK_KEY_FENCE,
                                        REDISLOCK_KEY_WAKE_SLOT + l->fair_slot, REDISLOCK_KEY_HANDOFF };

    redislock_lock_call_init(c, l, keys, 4, true);
    redislock_call_long(c, l->fair_slot);
}

/* Reads claim_fair.lua's answer: the fence when the lock was handed to us
 * (*claimed), nothing otherwise. Returns FAILURE when the server refused the
 * claim or answered something else ({0} or {1, fence} expected); l->err
 * says which. No answer at all is not a failure here: the next attempt
 * finds out whether the server is gone, or that the lock was handed to us. */
static int claim_read(redislock_lock *l, redislock_cmd *cmd, bool *claimed, zend_long *fence)
{
    const redisReply *r = cmd->reply;
    redislock_tally t = { 0 };

    *claimed = cmd->status == REDISLOCK_CMD_OK && r->type == REDIS_REPLY_ARRAY && r->elements == 2
               && r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 1
               && r->element[1]->type == REDIS_REPLY_INTEGER;
    *fence = *claimed ? (zend_long) r->element[1]->integer : 0;
    if (*claimed || (cmd->status != REDISLOCK_CMD_OK && cmd->status != REDISLOCK_CMD_ERROR)) {
        return SUCCESS;
    }
    if (cmd->status == REDISLOCK_CMD_OK && r->type == REDIS_REPLY_ARRAY && r->elements == 1
        && r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 0) {
        return SUCCESS;
    }
    redislock_tally_failure(&t, cmd);
    redislock_lock_describe_failure(l, cmd, &t, "acquire");
    return FAILURE;
}

/* Blocks on the lock's wake-up list until a release hands the lock over,
 * or the block ends (at most half the life of our place in the queue, to
 * come back and renew it), with claim_fair.lua pipelined behind. */
static redislock_waited fair_wait(redislock_lock *l, redislock_wait *w, bool *result)
{
    redislock_cmd cmd, again, *from;
    redislock_call c;
    const redisReply *popped;
    uint64_t block, sent_at;
    redislock_waited slept;
    zend_long fence;
    bool claimed;
    int claim;

    *result = false;
    if (l->fair_slot < 0) {
        /* Not queued (the wait is too short to join): nothing to block on. */
        return redislock_wait_sleep(w, UINT64_MAX);
    }
    if (!redislock_wait_may_block(w, &block, &slept)) {
        return slept;
    }
    block = MIN(block, REDISLOCK_QUEUE_STAY_MS * 500);
    claim_call_init(&c, l);
    redislock_call_evalsha(&c, &redislock_script_claim_fair);
    popped = redislock_wait_blpop(l, &cmd, redislock_lock_key(l, REDISLOCK_KEY_WAKE_SLOT + l->fair_slot), block,
                                  &(redislock_words) { c.argc, c.argv, c.lens }, &sent_at);
    if (!popped || popped->type == REDIS_REPLY_ERROR) {
        redislock_cmd_dtor(&cmd, 1);
        w->blocking = false;
        return redislock_wait_sleep(w, UINT64_MAX);
    }
    from = &cmd;
    if (redislock_round_noscript(&cmd)) {
        /* The server lost claim_fair.lua: claim again the way that loads it. */
        redislock_lock_call_all(l, &redislock_script_claim_fair, &again, &c, NULL);
        from = &again;
    }
    claim = claim_read(l, from, &claimed, &fence);
    redislock_cmd_dtor(from, 1);
    redislock_cmd_dtor(&cmd, 1);
    if (claim == FAILURE) {
        /* The claim may have failed midway, with the lock ours: giving up
         * (the caller's) passes it on and leaves the queue. */
        return REDISLOCK_WAIT_FAILED;
    }
    if (claimed) {
        /* The claim ran after the BLPOP returned, so after it was sent: the
         * lease is dated from then, by our own clock. */
        l->has_token = true;
        l->pid = redislock_process_pid();
        redislock_attempt_granted(l, redislock_lock_validity_end(sent_at, l->settings.ttl), fence, from, 1);
        *result = true;
    }
    /* Otherwise the place stays ours, and a lease handed over is found by
     * the next attempt (or passed on when we give up). */
    return REDISLOCK_WAITED;
}

/* Leaves the queue at once, passing on the lock if a release handed it
 * over meanwhile. Failures leave leftovers: the place expires on its own,
 * and a hand-over's lease is short. */
static void fair_give_up(redislock_lock *l, redislock_wait *w)
{
    if (w->waiting) {
        redislock_lock_cleanup(l, redislock_lock_all_servers(l), redislock_lock_op_deadline(l));
    }
}

const redislock_wait_ops redislock_wait_fair = {
    "fair", fair_attempt, fair_wait, fair_give_up,
};
