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
 *
 * Once a waiter has a slot (from this wait or an earlier one of the object),
 * each try is one write of three commands: acquire_fair.lua (which keeps or
 * takes our place, and takes the lock when our turn has come), BLPOP on our
 * own wake-up list and our slot's, and claim_fair.lua. The script pushes
 * onto our own list when the lock is ours, so that the BLPOP returns at
 * once and the claim finds it ours; when the holder's lease ends before the
 * block would; and when we joined the queue with another slot than the one
 * whose list we block on (the next try blocks on the right one).
 */
#include "php_redislock.h"
#include "redislock_wait.h"

/* Whether the next attempt goes in one write with the BLPOP and the claim:
 * once the object waited (or this wait joined the queue), while the server
 * can block long enough to time it, and unless it has just lost
 * acquire_fair.lua (the plain attempt loads it again). */
static bool attempt_with_wait(const redislock_wait_state *w)
{
    return w->marked && w->blocking && !w->reload && redislock_wait_block_us(w) >= REDISLOCK_BLOCK_MIN_US;
}

/* Reads acquire_fair.lua's answer: 1 when the lock is ours (*fence, *lease),
 * 0 when not (*pttl of the holder, our slot in l->fair_slot), -1 when it is
 * no such answer. */
static int attempt_read(redislock_lock *l, const redisReply *r, zend_long *fence, zend_long *lease, zend_long *pttl)
{
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 3 || r->element[0]->type != REDIS_REPLY_INTEGER
        || r->element[1]->type != REDIS_REPLY_INTEGER || r->element[2]->type != REDIS_REPLY_INTEGER) {
        return -1;
    }
    if (r->element[0]->integer == 1) {
        *fence = (zend_long) r->element[1]->integer;
        *lease = MIN((zend_long) r->element[2]->integer, l->settings.ttl);
        return 1;
    }
    *pttl = (zend_long) r->element[1]->integer;
    l->fair_slot = r->element[2]->integer >= 0 && r->element[2]->integer < REDISLOCK_WAKE_SLOTS
                       ? (int) r->element[2]->integer
                       : -1;
    return 0;
}

/* One attempt by acquire_fair.lua. A caller that will wait joins the queue,
 * or renews its place. */
static int fair_attempt(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    redislock_cmd cmds[1];
    redislock_tally t = { 0 };
    redislock_call c;
    zend_long fence = 0, lease = l->settings.ttl;
    uint64_t start = redislock_now_us();
    bool waiting = w->blocking && start < w->deadline && (w->deadline - start) / 1000 > 0;
    int said;

    *result = false;
    if (attempt_with_wait(w)) {
        /* The wait that follows attempts, in the same write. */
        return REDISLOCK_OK;
    }
    w->reload = false;
    w->pttl = -1;
    l->has_token = true;
    l->pid = redislock_pid();
    redislock_lock_call_init(&c, l, redislock_fair_keys, REDISLOCK_FAIR_KEYS, true);
    redislock_call_long(&c, waiting ? REDISLOCK_QUEUE_STAY_MS : 0);
    redislock_call_long(&c, l->fair_slot);
    redislock_lock_call_all(l, &redislock_script_acquire_fair, cmds, &c, NULL);
    said = attempt_read(l, cmds[0].status == REDISLOCK_CMD_OK ? cmds[0].reply : NULL, &fence, &lease, &w->pttl);
    if (said == 1) {
        redislock_tally_yes(&t, &cmds[0]);
    } else if (said == 0) {
        redislock_tally_no(&t, &cmds[0]);
    } else {
        redislock_tally_failure(&t, &cmds[0]);
    }
    return redislock_lock_attempt_end(l, cmds, &t, t.yes == 1, redislock_lock_validity_end(start, lease), fence,
                                      result);
}

/* claim_fair.lua's call after a BLPOP on slot's wake-up list: KEYS = lock,
 * fence counter, that list, hand-over marker; ARGV = token, ttl, fenced,
 * the slot. */
static void claim_call_init(redislock_call *c, const redislock_lock *l, int slot)
{
    const redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, REDISLOCK_KEY_FENCE, REDISLOCK_KEY_WAKE_SLOT + slot,
                                        REDISLOCK_KEY_HANDOFF };

    redislock_lock_call_init(c, l, keys, 4, true);
    redislock_call_long(c, slot);
    c->argv[0] = "EVALSHA";
    c->lens[0] = 7;
    c->argv[1] = redislock_script_claim_fair.sha;
    c->lens[1] = 40;
}

/* Reads claim_fair.lua's answer: the fence when the lock was handed to us
 * (*claimed), nothing otherwise. */
static void claim_read(const redislock_cmd *cmd, bool *claimed, zend_long *fence)
{
    const redisReply *r = cmd->reply;

    *claimed = cmd->status == REDISLOCK_CMD_OK && r->type == REDIS_REPLY_ARRAY && r->elements == 2
               && r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 1
               && r->element[1]->type == REDIS_REPLY_INTEGER;
    *fence = *claimed ? (zend_long) r->element[1]->integer : 0;
}

/* Whether claim_fair.lua, sent as c behind a BLPOP, found the lock handed
 * to us (*fence then set). A server that lost the script is asked again
 * the way that loads it. */
static bool claimed(redislock_lock *l, const redislock_cmd *cmd, redislock_call *c, zend_long *fence)
{
    redislock_cmd again;
    bool ours;

    if (!redislock_cmd_noscript(cmd)) {
        claim_read(cmd, &ours, fence);
        return ours;
    }
    redislock_lock_call_all(l, &redislock_script_claim_fair, &again, c, NULL);
    claim_read(&again, &ours, fence);
    redislock_cmds_dtor(&again, 1);
    return ours;
}

/* Records the lock as ours after a claim that ran once the write sent at
 * sent_at had reached the server: the lease is dated from then, by our own
 * clock. */
static void claim_granted(redislock_lock *l, uint64_t sent_at, zend_long fence, bool *result)
{
    l->has_token = true;
    l->pid = redislock_pid();
    redislock_lock_granted(l, redislock_lock_validity_end(sent_at, l->settings.ttl), fence);
    *result = true;
}

/* acquire_fair.lua's call that goes before the BLPOP: the attempt's KEYS
 * and our own wake-up list; ARGV = token, ttl, fenced, how long our place
 * lasts, our slot (-1: we join), how short a lease the holder may have left
 * before we do not block (only when the block was not timed by a lease
 * known already), and the slot whose list the BLPOP is on. */
static void try_call_init(redislock_call *c, const redislock_lock *l, const redislock_wait_state *w,
                          const zend_string *own, uint64_t block, int slot)
{
    redislock_call_init(c);
    for (int i = 0; i < REDISLOCK_FAIR_KEYS; i++) {
        redislock_call_key(c, redislock_lock_key(l, redislock_fair_keys[i]));
    }
    redislock_call_key(c, own);
    redislock_call_arg(c, l->token, REDISLOCK_TOKEN_LEN);
    redislock_call_long(c, l->settings.ttl);
    redislock_call_bool(c, l->settings.fencing);
    redislock_call_long(c, REDISLOCK_QUEUE_STAY_MS);
    redislock_call_long(c, l->fair_slot);
    redislock_call_long(c, w->pttl < 0 ? (zend_long) (block / 1000) : 0);
    redislock_call_long(c, slot);
    /* NOSCRIPT here would leave the BLPOP blocked with our place not
     * renewed: until the server has run the script for us, it gets the body. */
    c->argv[0] = l->script_seen ? "EVALSHA" : "EVAL";
    c->lens[0] = l->script_seen ? 7 : 4;
    c->argv[1] = l->script_seen ? redislock_script_acquire_fair.sha : redislock_script_acquire_fair.body;
    c->lens[1] = l->script_seen ? 40 : redislock_script_acquire_fair.len;
}

/* Sends the attempt, BLPOP on our own list and slot's list for block us,
 * and the claim, in one write; the replies are cmd's 0, 1 and 2. */
static uint64_t send_try(redislock_lock *l, redislock_wait_state *w, redislock_cmd *cmd, int slot, uint64_t block)
{
    redislock_netopts o = redislock_lock_netopts(l);
    zend_string *own = redislock_wait_own_list(l);
    const zend_string *list = redislock_lock_key(l, REDISLOCK_KEY_WAKE_SLOT + slot);
    redislock_call try, claim;
    char secs[32];
    const char *blpop[4] = { "BLPOP", ZSTR_VAL(own), ZSTR_VAL(list), secs };
    size_t lens[4] = { 5, ZSTR_LEN(own), ZSTR_LEN(list), 0 };
    uint64_t sent_at;

    lens[3] = (size_t) snprintf(secs, sizeof(secs), "%.3f", (double) MAX(block, 1000) / 1e6);
    try_call_init(&try, l, w, own, block, slot);
    claim_call_init(&claim, l, slot);
    /* The server answers when woken or when its own timeout ends, which it
     * notices on its next timer tick. */
    o.read_timeout += (zend_long) (block / 1000) + REDISLOCK_BLOCK_SLACK_MS;
    l->has_token = true;
    l->pid = redislock_pid();
    sent_at = redislock_now_us();
    redislock_round_pipeline(&l->settings.servers->server[0], cmd, &o,
                             (redislock_words[]) { { try.argc, try.argv, try.lens }, { 4, blpop, lens },
                                                   { claim.argc, claim.argv, claim.lens } },
                             3);
    zend_string_release(own);
    return sent_at;
}

/* The attempt in the write got an error reply (not NOSCRIPT): the try
 * failed on it, which the caller throws. */
static redislock_waited refused(redislock_lock *l, redislock_cmd *cmd, const redisReply *tried, bool *result)
{
    redislock_tally t = { 0 };

    redislock_cmd_refused_by(cmd, tried);
    redislock_tally_failure(&t, cmd);
    redislock_lock_attempt_end(l, cmd, &t, false, 0, 0, result);
    return REDISLOCK_WAIT_FAILED;
}

/* One try in one write (see the top). */
static redislock_waited fair_try_wait(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    redislock_cmd cmd;
    redislock_call claim;
    const redisReply *tried, *popped;
    uint64_t block = MIN(redislock_wait_block_us(w), REDISLOCK_QUEUE_STAY_MS * 500), sent_at;
    zend_long fence = 0, lease = 0;

    /* Not queued yet: we block on the list of our last place's slot, which
     * the queue gives us again while it runs at most one waiter deep. */
    int slot = l->fair_slot >= 0 ? l->fair_slot : l->fair_rejoin;

    sent_at = send_try(l, w, &cmd, slot, block);
    l->script_seen = true;
    w->pttl = -1;
    tried = redislock_cmd_reply(&cmd, 0);
    popped = redislock_cmd_reply(&cmd, 2) ? redislock_cmd_reply(&cmd, 1) : NULL;
    if (!popped) {
        /* No answer: the next attempt (a plain one) finds out whether the
         * server is gone, and takes a lock handed over meanwhile. */
        redislock_cmds_dtor(&cmd, 1);
        w->blocking = false;
        return redislock_wait_sleep(w, UINT64_MAX);
    }
    if (attempt_read(l, tried, &fence, &lease, &w->pttl) < 0) {
        if (!redislock_reply_noscript(tried)) {
            return refused(l, &cmd, tried, result);
        }
        /* The server lost it: nothing ran but the BLPOP and the claim. The
         * next attempt loads it. */
        w->reload = true;
        l->script_seen = false;
    }
    if (popped->type == REDIS_REPLY_ERROR) {
        /* BLPOP refused (an ACL without it): backoff from now on. */
        w->blocking = false;
    } else {
        REDISLOCK_G(stats).waits++;
    }
    claim_call_init(&claim, l, slot);
    if (claimed(l, &cmd, &claim, &fence)) {
        claim_granted(l, sent_at, fence, result);
    }
    redislock_cmds_dtor(&cmd, 1);
    /* Not TRIED even when time is up: the attempt after leaves the queue. */
    return REDISLOCK_WAITED;
}

/* Blocks on the lock's wake-up list until a release hands the lock over,
 * or the block ends (at most half the life of our place in the queue, to
 * come back and renew it), with claim_fair.lua pipelined behind; or, once
 * the attempts go with the wait, one try in one write. */
static redislock_waited fair_wait(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    redislock_cmd cmd;
    redislock_call c;
    const redisReply *popped;
    uint64_t block, sent_at;
    redislock_waited slept;
    zend_long fence;

    *result = false;
    if (attempt_with_wait(w)) {
        return fair_try_wait(l, w, result);
    }
    if (l->fair_slot < 0) {
        /* Not queued (the wait is too short to join): nothing to block on. */
        return redislock_wait_sleep(w, UINT64_MAX);
    }
    if (!redislock_wait_may_block(w, &block, &slept)) {
        return slept;
    }
    block = MIN(block, REDISLOCK_QUEUE_STAY_MS * 500);
    claim_call_init(&c, l, l->fair_slot);
    popped = redislock_wait_blpop(l, &cmd, redislock_lock_key(l, REDISLOCK_KEY_WAKE_SLOT + l->fair_slot), block,
                                  &(redislock_words) { c.argc, c.argv, c.lens }, &sent_at);
    if (!popped || popped->type == REDIS_REPLY_ERROR) {
        redislock_cmds_dtor(&cmd, 1);
        w->blocking = false;
        return redislock_wait_sleep(w, UINT64_MAX);
    }
    if (claimed(l, &cmd, &c, &fence)) {
        claim_granted(l, sent_at, fence, result);
    }
    redislock_cmds_dtor(&cmd, 1);
    /* Otherwise the place stays ours, and a lease handed over is found by
     * the next attempt (or passed on when we give up). From now on the
     * attempts go with the wait. */
    w->marked = true;
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
