/*
 * Waiting on one server: blocked on the server until a release wakes us.
 *
 * The first attempt is a plain SET NX PX. When it finds the lock taken (or
 * the object had to wait before), each further attempt is one write of
 * three commands:
 *
 *   1. the acquire script, which tries the lock and, when it is taken, marks
 *      it as waited for (so the release script pushes a wake-up);
 *   2. BLPOP on our own wake-up list and the lock's, for no longer than the
 *      holder's lease (or a second: see REDISLOCK_WAIT_RECHECK_US);
 *   3. the next attempt (SET NX PX, or with fencing the acquire script),
 *      which the server runs the moment the BLPOP returns, before any other
 *      client.
 *
 * When the script takes the lock, it pushes onto our own list, so that the
 * BLPOP returns at once and the attempt behind it finds the lock ours; it
 * does the same when the holder's lease ends before the BLPOP would. So a
 * waiter costs one round trip per try, and a release passes the lock to the
 * woken waiter in the same round trip as its own. A server that refuses
 * BLPOP (an ACL without it) turns the rest of the wait into backoff.
 */
#include "php_redislock.h"
#include "redislock_wait.h"
#include "redislock_reply.h"

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

/* Whether the next attempt goes in one write with a BLPOP: once the lock is
 * known to be contended, while the server can block long enough to time it,
 * and unless the server has just lost the acquire script (the plain attempt
 * loads it again). */
static bool attempt_with_wait(const redislock_wait_state *w)
{
    return w->marked && w->blocking && !w->reload && redislock_wait_block_us(w) >= REDISLOCK_BLOCK_MIN_US;
}

static int wakeup_attempt(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    if (attempt_with_wait(w)) {
        /* The wait that follows attempts, in the same write. */
        *result = false;
        return REDISLOCK_OK;
    }
    if (!w->marked) {
        int rc = redislock_lock_try(l, 0, result, &w->pttl);
        if (rc != REDISLOCK_OK || *result || !w->blocking || redislock_now_us() >= w->deadline) {
            return rc;
        }
        w->marked = true;
        if (attempt_with_wait(w)) {
            return REDISLOCK_OK;
        }
    }
    w->reload = false;
    return redislock_wait_wakeup_attempt(l, w, result);
}

/* The acquire script's call that goes before the BLPOP: KEYS = lock, fence
 * counter, waiters marker, our own wake-up list, the lock's; ARGV = token, ttl, fenced,
 * the rest of the wait (the marker lasts that long), and how short a lease
 * the holder may have left before we do not block (only when the block was
 * not timed by a lease known already). */
static void marking_call_init(redislock_call *c, const redislock_lock *l, const redislock_wait_state *w,
                              zend_string *own, uint64_t block)
{
    static const redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, REDISLOCK_KEY_FENCE, REDISLOCK_KEY_WAIT };
    uint64_t now = redislock_now_us();

    redislock_call_init(c);
    for (int i = 0; i < 3; i++) {
        redislock_call_key(c, redislock_lock_key(l, keys[i]));
    }
    redislock_call_key(c, own);
    redislock_call_key(c, REDISLOCK_LKEY(l, WAKE));
    redislock_call_arg(c, l->token, REDISLOCK_TOKEN_LEN);
    redislock_call_long(c, l->settings.ttl);
    redislock_call_bool(c, l->settings.fencing);
    redislock_call_long(c, now < w->deadline ? (zend_long) ((w->deadline - now) / 1000) : 0);
    redislock_call_long(c, w->pttl < 0 ? (zend_long) (block / 1000) : 0);
    /* NOSCRIPT here would leave the BLPOP blocked with the lock unmarked:
     * until the server has run the script for us, it gets the body. */
    if (l->script_seen) {
        c->argv[0] = "EVALSHA";
        c->lens[0] = 7;
        c->argv[1] = redislock_script_acquire.sha;
        c->lens[1] = 40;
    } else {
        c->argv[0] = "EVAL";
        c->lens[0] = 4;
        c->argv[1] = redislock_script_acquire.body;
        c->lens[1] = redislock_script_acquire.len;
    }
}

/* Whether the attempt behind the BLPOP took the lock. */
static bool attempt_granted(const redislock_cmd *cmd, const redislock_attempt_cmd *a)
{
    zend_long n;

    if (cmd->status != REDISLOCK_CMD_OK) {
        return false;
    }
    return a->scripted ? redislock_acquire_reply(cmd->reply, &n) == 1 : cmd->reply->type == REDIS_REPLY_STATUS;
}

/* Makes cmd carry the error reply the server gave to the first command in
 * its place: the attempt failed on that error. */
static void refused_by(redislock_cmd *cmd, const redisReply *first)
{
    char text[REDISLOCK_ERRLEN];

    redislock_reply_error_text(first, text, sizeof(text));
    cmd->status = REDISLOCK_CMD_ERROR;
    snprintf(cmd->errstr, sizeof(cmd->errstr), "%s replied: %s", cmd->srv->label, text);
}

/* Counts the answers of one write (marking script, BLPOP, attempt) as one
 * attempt: granted by the script, else by the attempt behind the BLPOP
 * (when every reply came). *blocked: the BLPOP ran as asked. */
static void tally_pipeline(redislock_lock *l, redislock_wait_state *w, redislock_cmd *cmd,
                           const redislock_attempt_cmd *a, const redisReply *popped, redislock_tally *t,
                           zend_long *fence, bool *blocked)
{
    const redisReply *first = redislock_cmd_reply(cmd, 0);
    zend_long n = 0, pttl = -1;
    int said = redislock_acquire_reply(first, &n);

    *blocked = popped && popped->type != REDIS_REPLY_ERROR;
    l->script_seen = said >= 0;
    if (said == 1) {
        *fence = n;
        redislock_tally_yes(t, cmd);
        return;
    }
    if (said == 0) {
        w->pttl = n;
    } else if (first && first->type == REDIS_REPLY_ERROR && first->len >= 8 && memcmp(first->str, "NOSCRIPT", 8) == 0) {
        /* The server lost it (SCRIPT FLUSH, a restart, a failover): nothing
         * ran but the BLPOP and the attempt. The next attempt loads it. */
        w->reload = true;
    } else if (first) {
        /* Refused, or failed midway (it may have set the key first): unless
         * the attempt behind the BLPOP took the lock, the server's answer is
         * this error, as when the script runs alone. */
        t->mayhold |= 1;
        if (popped && !attempt_granted(cmd, a)) {
            refused_by(cmd, first);
        }
    }
    if (!popped) {
        redislock_tally_failure(t, cmd);
    } else if (a->scripted && redislock_cmd_noscript(cmd)) {
        redislock_tally_no(t, cmd);
        w->reload = true;
    } else {
        redislock_attempt_tally(t, cmd, a, fence, &pttl);
        if (pttl >= 0) {
            w->pttl = pttl;
        }
    }
}

/* One attempt in one write with a BLPOP (see the top of this file). */
static redislock_waited wakeup_wait(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    redislock_attempt_cmd a;
    redislock_call mark;
    redislock_cmd cmd;
    redislock_tally t = { 0 };
    const redisReply *popped;
    const zend_string *wake = REDISLOCK_LKEY(l, WAKE);
    zend_string *own;
    uint64_t block, sent_at;
    redislock_waited slept;
    zend_long fence = 0;
    bool blocked;

    *result = false;
    if (!redislock_wait_may_block(w, &block, &slept)) {
        return slept;
    }
    own = zend_string_concat3(ZSTR_VAL(wake), ZSTR_LEN(wake), ":", 1, l->waiter_id, REDISLOCK_WAITER_ID_LEN);
    marking_call_init(&mark, l, w, own, block);
    redislock_attempt_cmd_init(&a, l, 0);
    if (a.scripted) {
        a.c.argv[0] = "EVALSHA";
        a.c.lens[0] = 7;
        a.c.argv[1] = redislock_script_acquire.sha;
        a.c.lens[1] = 40;
    }
    l->has_token = true;
    l->pid = redislock_pid();
    w->pttl = -1;
    popped = redislock_wait_blpop(l, &cmd, &(redislock_words) { mark.argc, mark.argv, mark.lens }, ZSTR_VAL(own),
                                  ZSTR_LEN(own), wake, block, &(redislock_words) { a.c.argc, a.c.argv, a.c.lens },
                                  &sent_at);
    zend_string_release(own);
    tally_pipeline(l, w, &cmd, &a, popped, &t, &fence, &blocked);

    /* Every command ran after the write was sent: the lease is dated from
     * then, by our own clock, never by the server's. */
    if (redislock_lock_attempt_end(l, &cmd, &t, t.yes == 1, redislock_lock_validity_end(sent_at, l->settings.ttl),
                                   fence, result) != REDISLOCK_OK) {
        if (cmd.status == REDISLOCK_CMD_ERROR) {
            /* Refused: the server's answer. */
            return REDISLOCK_WAIT_FAILED;
        }
        /* No answer: the next attempt (a plain one) finds out whether the
         * server is gone. */
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
    "wakeup", wakeup_attempt, wakeup_wait, wakeup_give_up,
};
