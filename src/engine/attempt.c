/*
 * One attempt to take the lock outside fair mode (see engine/attempt.h),
 * and the end of any attempt.
 */
#include "php_redislock.h"
#include "engine/attempt.h"
#include "base/clock.h"
#include "engine/lock.h"
#include "engine/round.h"
#include "engine/scripts.h"

/* The acquire script's answer r: 1 granted, 0 refused, -1 no such answer. */
int redislock_attempt_reply(const redisReply *r, zend_long *n)
{
    /* A refusal has a third element (lua/acquire.lua): how long the waiters
     * marker lasts. */
    if (r && r->type == REDIS_REPLY_ARRAY && (r->elements == 2 || r->elements == 3)
        && r->element[0]->type == REDIS_REPLY_INTEGER && r->element[1]->type == REDIS_REPLY_INTEGER
        && (r->elements == 2 || r->element[2]->type == REDIS_REPLY_INTEGER)) {
        *n = (zend_long) r->element[1]->integer;
        if (r->element[0]->integer != 1 && *n == -2) {
            /* Being handed to a woken waiter (whose release will wake us),
             * or free for a moment: block for the least we can, then try
             * again. */
            *n = REDISLOCK_BLOCK_MIN_US / 1000;
        }
        return r->element[0]->integer == 1;
    }
    return -1;
}

/* How long a marking refusal said the lock stays marked (ms), else -1. */
zend_long redislock_attempt_marked_ms(const redisReply *r)
{
    zend_long n;

    return redislock_attempt_reply(r, &n) == 0 && r->elements == 3 ? (zend_long) r->element[2]->integer : -1;
}

/* The least a marking round's refusals said the lock stays marked on the
 * servers, and how many said it, into seen. */
static void marked_round(const redislock_lock *l, const redislock_cmd *cmds, redislock_attempt_seen *seen)
{
    zend_long least = -1;
    uint32_t known = 0;

    for (uint32_t i = 0; i < l->settings.servers->count; i++) {
        zend_long ms = cmds[i].status == REDISLOCK_CMD_OK ? redislock_attempt_marked_ms(cmds[i].reply) : -1;
        if (ms > 0) {
            least = known++ ? MIN(least, ms) : ms;
        }
    }
    seen->marked_ms = least;
    seen->marked_by = known;
}

/* The acquire script's answer to cmd (see redislock_attempt_reply), -1
 * when the command got none. */
static int acquire_script_answer(const redislock_cmd *cmd, zend_long *n)
{
    return cmd->status == REDISLOCK_CMD_OK ? redislock_attempt_reply(cmd->reply, n) : -1;
}

/* Reads the acquire script's answer into the tally. */
int redislock_attempt_vote_script(const redislock_cmd *cmd)
{
    zend_long n;

    return acquire_script_answer(cmd, &n);
}

/* Counts the acquire script's answer: a grant's fence, a refusal's pttl. */
static void tally_acquire_script(redislock_tally *t, redislock_cmd *cmd, zend_long *fence, zend_long *pttl)
{
    zend_long n = 0;
    int vote = acquire_script_answer(cmd, &n);

    if (vote == 1) {
        *fence = MAX(*fence, n);
    } else if (vote == 0) {
        *pttl = MAX(*pttl, n);
    }
    redislock_tally_vote(t, cmd, vote);
}

/* Ends an attempt that was not granted: removes our token wherever it may
 * sit, and tells whether the servers gave an answer at all. The servers
 * that just replied (yes, or an error from a script that may have set the
 * key before failing) get the release at once; one whose answer never came
 * is not waited for a second time: our token there becomes a leftover,
 * removed when the server answers again (or at request end). */
static int attempt_failed(redislock_lock *l, redislock_cmd *cmds, const redislock_tally *t)
{
    uint32_t n = l->settings.servers->count;

    if (t->yes + t->no < redislock_lock_quorum(l)) {
        redislock_lock_describe_failure(l, cmds, t, "acquire");
    }
    redislock_cmd_dtor(cmds, n);
    redislock_lock_keep_leftovers(l, t->mayhold & ~t->replied, NULL);
    redislock_lock_cleanup(l, t->mayhold & t->replied, redislock_lock_op_deadline(l));
    if (t->yes + t->no < redislock_lock_quorum(l)) {
        return REDISLOCK_ERR;
    }
    REDISLOCK_G(stats).contended++;
    return REDISLOCK_OK;
}

/* Records that the lock is ours until valid_until. */
void redislock_attempt_granted(redislock_lock *l, uint64_t valid_until, zend_long fence, const redislock_cmd *cmds,
                               uint32_t n)
{
    l->held = true;
    l->valid_until = valid_until;
    l->fence = fence;
    redislock_lock_term_arm(l, cmds, n);
}

/* Ends an attempt: granted when the servers said so (granted) and validity
 * is left, failed otherwise. */
int redislock_attempt_end(redislock_lock *l, redislock_cmd *cmds, const redislock_tally *t, bool granted,
                          uint64_t valid_until, zend_long fence, bool *result)
{
    if (granted && redislock_now_us() < valid_until) {
        redislock_attempt_granted(l, valid_until, fence, cmds, l->settings.servers->count);
        redislock_cmd_dtor(cmds, l->settings.servers->count);
        *result = true;
        return REDISLOCK_OK;
    }
    return attempt_failed(l, cmds, t);
}

/* Counts a reply to SET NX: OK is yes, nil (held elsewhere) no. */
int redislock_attempt_vote_set(const redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_STATUS && cmd->reply->len == 2
        && memcmp(cmd->reply->str, "OK", 2) == 0) {
        return 1;
    }
    return cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_NIL ? 0 : -1;
}

/* Counts a reply to SET NX into the tally. */
static void tally_set(redislock_tally *t, redislock_cmd *cmd)
{
    redislock_tally_vote(t, cmd, redislock_attempt_vote_set(cmd));
}

/* The attempt's command: the acquire script, or SET NX PX. */
void redislock_attempt_init(redislock_attempt_cmd *a, const redislock_lock *l, zend_long mark_ms)
{
    redislock_call *c = &a->c;

    static const redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, REDISLOCK_KEY_FENCE, REDISLOCK_KEY_WAIT,
                                                REDISLOCK_KEY_WAKE };

    a->scripted = l->settings.fencing || mark_ms > 0;
    if (a->scripted) {
        /* A waiter's names the lock's wake-up list too (lua/acquire.lua). */
        redislock_lock_call_init(c, l, keys, mark_ms > 0 ? 4 : 3, true);
        redislock_call_long(c, mark_ms);
        return;
    }
    redislock_attempt_set_nx(c, l, l->token, REDISLOCK_TOKEN_LEN);
}

void redislock_attempt_set_nx(redislock_call *c, const redislock_lock *l, const char *value, size_t len)
{
    redislock_call_init(c);
    /* A plain command in the same arrays. */
    c->argc = 0;
    redislock_call_arg(c, "SET", 3);
    redislock_call_arg(c, ZSTR_VAL(REDISLOCK_LKEY(l, LOCK)), ZSTR_LEN(REDISLOCK_LKEY(l, LOCK)));
    redislock_call_arg(c, value, len);
    redislock_call_arg(c, "NX", 2);
    redislock_call_arg(c, "PX", 2);
    redislock_call_long(c, l->settings.ttl);
}

/* Counts one server's answer to the attempt command a. */
void redislock_attempt_tally(redislock_tally *t, redislock_cmd *cmd, const redislock_attempt_cmd *a, zend_long *fence,
                             zend_long *pttl)
{
    if (a->scripted) {
        tally_acquire_script(t, cmd, fence, pttl);
    } else {
        tally_set(t, cmd);
    }
}

/* Quorum locks with fencing: each server numbers grants on its own, so the
 * number handed out (the highest of the granting servers') is written back
 * to every server before the grant counts. Then any later majority shares
 * a server whose counter is at least this number, and numbers its grant
 * higher. True when a quorum recorded it. */
bool redislock_attempt_fence_recorded(redislock_lock *l, zend_long fence)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_call c;

    static const redislock_key_kind keys[] = { REDISLOCK_KEY_FENCE };

    redislock_lock_call_init(&c, l, keys, 1, false);
    redislock_call_long(&c, fence);
    redislock_lock_call_all(l, &redislock_script_fence_raise, cmds, &c, redislock_tally_vote_integer);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    redislock_cmd_dtor(cmds, n);
    return t.yes >= redislock_lock_quorum(l);
}

/* One attempt on every server: SET NX PX, or the acquire script when fenced
 * or marking the lock as waited for mark_ms. */
int redislock_attempt_try(redislock_lock *l, zend_long mark_ms, bool *result, redislock_attempt_seen *seen)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_attempt_cmd a;
    uint64_t start, valid_until;
    zend_long fence = 0;

    *result = false;
    seen->pttl = -1;
    seen->marked_ms = -1;
    seen->marked_by = 0;
    l->has_token = true;
    l->pid = redislock_process_pid();
    redislock_attempt_init(&a, l, mark_ms);
    start = seen->sent_at = redislock_now_us();
    if (a.scripted) {
        redislock_lock_call_all(l, &redislock_script_acquire, cmds, &a.c, redislock_attempt_vote_script);
    } else {
        redislock_lock_send_all(l, cmds, a.c.argc, a.c.argv, a.c.lens, redislock_attempt_vote_set);
    }
    for (uint32_t i = 0; i < n; i++) {
        redislock_attempt_tally(&t, &cmds[i], &a, &fence, &seen->pttl);
    }
    if (mark_ms > 0) {
        marked_round(l, cmds, seen);
    }
    l->placed = t.mayhold;
    valid_until = redislock_lock_validity_end(start, l->settings.ttl);
    return redislock_attempt_end(l, cmds, &t,
                                 t.yes >= redislock_lock_quorum(l) && redislock_now_us() < valid_until
                                     && (!l->settings.fencing || n == 1 || redislock_attempt_fence_recorded(l, fence)),
                                 valid_until, fence, result);
}

