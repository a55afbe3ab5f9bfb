/*
 * Fair mode (one server): waiters get the lock in arrival order.
 *
 * A waiter's attempt is acquire_fair.lua, which takes the lock only when it
 * is free and nobody queued earlier is still waiting, and otherwise joins
 * the queue (or renews its place, which lasts REDISLOCK_QUEUE_STAY_MS). A
 * release (release_fair.lua) hands the lock straight to the head of the
 * queue with a short lease and wakes only that waiter, on its own list; the
 * woken waiter renews the lease to its ttl with extend.lua, pipelined
 * behind its BLPOP, and holds the lock with no further attempt. A server
 * that refuses BLPOP turns the rest of the wait into backoff.
 */
#include "php_redislock.h"
#include "redislock_wait.h"

/* One attempt by acquire_fair.lua. A caller that will wait joins the queue,
 * or renews its place. */
static int fair_attempt(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    redislock_cmd cmds[1];
    redislock_tally t = { 0 };
    char ttl[24], stay[24];
    zend_long fence = 0, lease = l->settings.ttl;
    uint64_t start = redislock_now_us();
    bool waiting = w->blocking && start < w->deadline && (w->deadline - start) / 1000 > 0;
    const char *argv[12] = { NULL, NULL, "5", ZSTR_VAL(l->key), ZSTR_VAL(l->fence_key), ZSTR_VAL(l->queue_key),
                             ZSTR_VAL(l->queue_exp_key), ZSTR_VAL(l->wake_prefix), l->token, ttl,
                             l->settings.fencing ? "1" : "0", stay };
    size_t lens[12] = { 0, 0, 1, ZSTR_LEN(l->key), ZSTR_LEN(l->fence_key), ZSTR_LEN(l->queue_key),
                        ZSTR_LEN(l->queue_exp_key), ZSTR_LEN(l->wake_prefix), REDISLOCK_TOKEN_LEN, 0, 1, 0 };
    redisReply *r;

    *result = false;
    w->pttl = -1;
    l->has_token = true;
    l->pid = redislock_pid();
    lens[9] = (size_t) snprintf(ttl, sizeof(ttl), ZEND_LONG_FMT, l->settings.ttl);
    lens[11] = (size_t) snprintf(stay, sizeof(stay), "%d", waiting ? REDISLOCK_QUEUE_STAY_MS : 0);
    redislock_lock_script_all(l, &redislock_script_acquire_fair, cmds, 12, argv, lens);
    r = cmds[0].reply;
    /* {1, fence, lease ms} when the lock is ours, {0, the holder's pttl} when not. */
    if (cmds[0].status == REDISLOCK_CMD_OK && r->type == REDIS_REPLY_ARRAY && r->elements >= 2
        && r->element[0]->type == REDIS_REPLY_INTEGER && r->element[1]->type == REDIS_REPLY_INTEGER
        && (r->element[0]->integer == 1 ? r->elements == 3 && r->element[2]->type == REDIS_REPLY_INTEGER
                                         : r->elements == 2)) {
        if (r->element[0]->integer == 1) {
            redislock_tally_yes(&t, &cmds[0]);
            fence = (zend_long) r->element[1]->integer;
            lease = MIN((zend_long) r->element[2]->integer, l->settings.ttl);
        } else {
            redislock_tally_no(&t, &cmds[0]);
            w->pttl = (zend_long) r->element[1]->integer;
        }
    } else {
        redislock_tally_failure(&t, &cmds[0]);
    }
    return redislock_lock_attempt_end(l, cmds, &t, t.yes == 1, redislock_lock_validity_end(start, lease), fence,
                                      result);
}

/* The fence a hand-over carries in its wake-up (0 when there is none). */
static zend_long handover_fence(const redisReply *popped)
{
    if (popped->type == REDIS_REPLY_ARRAY && popped->elements == 2 && popped->element[1]->type == REDIS_REPLY_STRING) {
        return ZEND_STRTOL(popped->element[1]->str, NULL, 10);
    }
    return 0;
}

/* Blocks on our own wake-up list until a release hands us the lock, or the
 * block ends (at most half the life of our place in the queue, to come back
 * and renew it), with the renewal of a handed-over lease pipelined behind. */
static redislock_waited fair_wait(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    redislock_cmd cmd;
    redislock_tally t = { 0 };
    char ttl[24];
    const char *renew[6] = { "EVALSHA", redislock_script_extend.sha, "1", ZSTR_VAL(l->key), l->token, ttl };
    size_t renew_lens[6] = { 7, 40, 1, ZSTR_LEN(l->key), REDISLOCK_TOKEN_LEN, 0 };
    const redisReply *popped;
    zend_string *list;
    uint64_t block, sent_at;

    *result = false;
    if (!w->blocking) {
        return redislock_wait_sleep(w, UINT64_MAX);
    }
    block = redislock_wait_block_us(w);
    if (block < REDISLOCK_BLOCK_MIN_US) {
        return redislock_wait_sleep(w, block);
    }
    block = MIN(block, REDISLOCK_QUEUE_STAY_MS * 500);
    renew_lens[5] = (size_t) snprintf(ttl, sizeof(ttl), ZEND_LONG_FMT, l->settings.ttl);
    list = zend_string_concat2(ZSTR_VAL(l->wake_prefix), ZSTR_LEN(l->wake_prefix), l->token, REDISLOCK_TOKEN_LEN);
    popped = redislock_wait_blpop(l, &cmd, list, block, 6, renew, renew_lens, &sent_at);
    zend_string_release(list);
    if (!popped || popped->type == REDIS_REPLY_ERROR) {
        redislock_cmds_dtor(&cmd, 1);
        w->blocking = false;
        return redislock_wait_sleep(w, UINT64_MAX);
    }

    redislock_cmd again, *renewed = &cmd;
    if (redislock_cmd_noscript(&cmd)) {
        /* The server lost extend.lua: renew again the way that loads it. */
        renew[0] = NULL;
        redislock_lock_script_all(l, &redislock_script_extend, &again, 6, renew, renew_lens);
        renewed = &again;
    }
    redislock_tally_integer(&t, renewed);
    if (renewed == &again) {
        redislock_cmds_dtor(&again, 1);
    }
    if (t.yes == 1) {
        /* The renewal ran after the BLPOP returned, so after it was sent:
         * the lease is dated from then, by our own clock. */
        l->has_token = true;
        l->pid = redislock_pid();
        redislock_lock_granted(l, redislock_lock_validity_end(sent_at, l->settings.ttl), handover_fence(popped));
        *result = true;
    }
    /* Otherwise the place stays ours, and a lease handed over is found by
     * the next attempt (or passed on when we give up). */
    redislock_cmds_dtor(&cmd, 1);
    return REDISLOCK_WAITED;
}

/* Leaves the queue at once, passing on the lock if a release handed it
 * over meanwhile. Failures leave leftovers: the place expires on its own,
 * and a hand-over's lease is short. */
static void fair_give_up(redislock_lock *l, redislock_wait_state *w)
{
    if (w->waiting) {
        redislock_lock_cleanup(l, redislock_lock_all_servers(l), redislock_lock_op_deadline(l));
    }
}

const redislock_wait_ops redislock_wait_fair = {
    "fair", fair_attempt, fair_wait, fair_give_up,
};
