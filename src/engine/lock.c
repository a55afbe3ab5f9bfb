/*
 * The lock protocol.
 *
 * Every operation sends the same command to all servers of the lock at once
 * and counts the answers: a lock over N servers needs floor(N/2)+1 of them
 * (one, for a single server). Answers are "yes", "no", or a failure; when
 * the failures are enough to change the outcome, the outcome is unknown and
 * the caller gets REDISLOCK_ERR, never a guess.
 */
#include "php_redislock.h"
#include "engine/lock.h"
#include "engine/leftovers.h"
#include "client/pool.h"
#include "engine/round.h"
#include "engine/wait.h"
#include "engine/scripts.h"
#include "client/topology.h"

/* The mask of all the lock's servers. */
uint32_t redislock_lock_all_servers(const redislock_lock *l)
{
    return ((uint32_t) 1 << l->settings.servers->count) - 1;
}

/* Timeouts for one exchange. With several servers each one gets at most
 * quorum_timeout, small next to the ttl as Redlock wants, so that a slow or
 * frozen minority costs little of the lease. */
redislock_netopts redislock_lock_netopts(const redislock_lock *l)
{
    const redislock_settings *s = &l->settings;
    redislock_netopts o = {
        .connect_timeout = s->connect_timeout,
        .read_timeout = s->read_timeout,
        .persistent = s->persistent,
    };

    if (s->servers->count > 1) {
        o.connect_timeout = MIN(o.connect_timeout, s->quorum_timeout);
        o.read_timeout = MIN(o.read_timeout, s->quorum_timeout);
        o.one_deadline = true;
    }
    return o;
}

/* End of the validity of a lease of ttl ms whose request left at start:
 * the ttl less the Redlock clock drift allowance (1% of the ttl plus 2 ms). */
uint64_t redislock_lock_validity_end(uint64_t start, zend_long ttl)
{
    uint64_t lease = (uint64_t) ttl * 1000, drift = (uint64_t) ttl * 10 + 2000;

    return lease > drift ? start + lease - drift : start;
}

/* Sends one command (argv) to every server of the lock. */
void redislock_lock_decide_early(const redislock_lock *l, redislock_netopts *o, redislock_enough *e,
                                 const redislock_cmd *cmds, int (*vote)(const redislock_cmd *cmd))
{
    if (vote && l->settings.servers->count > 1) {
        e->cmds = cmds;
        e->n = l->settings.servers->count;
        e->quorum = redislock_lock_quorum(l);
        e->vote = vote;
        o->enough = e;
    }
}

void redislock_lock_send_all(redislock_lock *l, redislock_cmd *cmds, int argc, const char **argv, const size_t *lens,
                             int (*vote)(const redislock_cmd *cmd))
{
    redislock_netopts o = redislock_lock_netopts(l);
    redislock_enough e;

    redislock_lock_decide_early(l, &o, &e, cmds, vote);
    redislock_round_send(l->settings.servers, redislock_lock_all_servers(l), &o, cmds, argc, argv, lens);
}

const redislock_key_kind redislock_fair_keys[REDISLOCK_FAIR_KEYS] = {
    REDISLOCK_KEY_LOCK, REDISLOCK_KEY_FENCE, REDISLOCK_KEY_QUEUE, REDISLOCK_KEY_QUEUE_EXP, REDISLOCK_KEY_HANDOFF,
    REDISLOCK_KEY_TICKET, REDISLOCK_KEY_WAKE_SLOT + 0, REDISLOCK_KEY_WAKE_SLOT + 1, REDISLOCK_KEY_WAKE_SLOT + 2,
    REDISLOCK_KEY_WAKE_SLOT + 3, REDISLOCK_KEY_WAKE_SLOT + 4, REDISLOCK_KEY_WAKE_SLOT + 5,
    REDISLOCK_KEY_WAKE_SLOT + 6, REDISLOCK_KEY_WAKE_SLOT + 7,
};

void redislock_lock_call_init(redislock_call *c, const redislock_lock *l, const redislock_key_kind *kinds, int n,
                              bool owner)
{
    redislock_call_init(c);
    for (int i = 0; i < n; i++) {
        redislock_call_key(c, redislock_lock_key(l, kinds[i]));
    }
    if (owner) {
        redislock_call_arg(c, l->token, REDISLOCK_TOKEN_LEN);
        redislock_call_long(c, l->settings.ttl);
        redislock_call_bool(c, l->settings.fencing);
    }
}

/* Runs a script call on every server of the lock (see redislock_round_script()). */
void redislock_lock_call_all(redislock_lock *l, const redislock_script *script, redislock_cmd *cmds, redislock_call *c,
                             int (*vote)(const redislock_cmd *cmd))
{
    redislock_netopts o = redislock_lock_netopts(l);
    redislock_enough e;

    redislock_lock_decide_early(l, &o, &e, cmds, vote);
    redislock_round_call(l->settings.servers, redislock_lock_all_servers(l), &o, script, cmds, c);
}

/* Records why the servers could not answer in l->err. */
void redislock_lock_describe_failure(redislock_lock *l, const redislock_cmd *cmds, const redislock_tally *t, const char *what)
{
    redislock_tally_describe(t, l->settings.servers->count, redislock_lock_quorum(l), cmds, what, &l->err);
}

/* The deadline of an operation that starts now: one read timeout. */
uint64_t redislock_lock_op_deadline(const redislock_lock *l)
{
    return redislock_now_us() + (uint64_t) redislock_lock_netopts(l).read_timeout * 1000;
}

static int new_token(redislock_lock *l)
{
    unsigned char raw[REDISLOCK_TOKEN_BYTES];

    if (redislock_random(raw, sizeof(raw)) == FAILURE) {
        redislock_error_set(&l->err, REDISLOCK_E_RANDOM, "no random bytes for the token");
        return REDISLOCK_ERR;
    }
    redislock_hex(l->token, raw, REDISLOCK_TOKEN_BYTES);
    /* Our own wake-up list gets a name when a wait needs one. */
    l->waiter_id[0] = '\0';
    return REDISLOCK_OK;
}

int redislock_acquire_reply(const redisReply *r, zend_long *n)
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

zend_long redislock_acquire_marked_ms(const redisReply *r)
{
    zend_long n;

    return redislock_acquire_reply(r, &n) == 0 && r->elements == 3 ? (zend_long) r->element[2]->integer : -1;
}

/* The least a marking round's refusals said the lock stays marked on the
 * servers, noted when a quorum of them said it (redislock_lock_note_marked). */
static void note_marked_round(redislock_lock *l, const redislock_cmd *cmds, uint64_t sent_at)
{
    zend_long least = -1;
    uint32_t known = 0;

    for (uint32_t i = 0; i < l->settings.servers->count; i++) {
        zend_long ms = cmds[i].status == REDISLOCK_CMD_OK ? redislock_acquire_marked_ms(cmds[i].reply) : -1;
        if (ms > 0) {
            least = known++ ? MIN(least, ms) : ms;
        }
    }
    redislock_lock_note_marked(l, least, known, sent_at);
}

/* The acquire script's answer to cmd (see redislock_acquire_reply), -1
 * when the command got none. */
static int acquire_script_answer(const redislock_cmd *cmd, zend_long *n)
{
    return cmd->status == REDISLOCK_CMD_OK ? redislock_acquire_reply(cmd->reply, n) : -1;
}

/* Reads the acquire script's answer into the tally. */
int redislock_vote_acquire_script(const redislock_cmd *cmd)
{
    zend_long n;

    return acquire_script_answer(cmd, &n);
}

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
    redislock_cmds_dtor(cmds, n);
    redislock_lock_keep_leftovers(l, t->mayhold & ~t->replied, NULL);
    redislock_lock_cleanup(l, t->mayhold & t->replied, redislock_lock_op_deadline(l));
    if (t->yes + t->no < redislock_lock_quorum(l)) {
        return REDISLOCK_ERR;
    }
    REDISLOCK_G(stats).contended++;
    return REDISLOCK_OK;
}

/* Records that the lock is ours until valid_until. */
void redislock_lock_granted(redislock_lock *l, uint64_t valid_until, zend_long fence)
{
    l->held = true;
    l->valid_until = valid_until;
    l->fence = fence;
}

/* Ends an attempt: granted when the servers said so (granted) and validity
 * is left, failed otherwise. */
int redislock_lock_attempt_end(redislock_lock *l, redislock_cmd *cmds, const redislock_tally *t, bool granted,
                               uint64_t valid_until, zend_long fence, bool *result)
{
    if (granted && redislock_now_us() < valid_until) {
        redislock_lock_granted(l, valid_until, fence);
        redislock_cmds_dtor(cmds, l->settings.servers->count);
        *result = true;
        return REDISLOCK_OK;
    }
    return attempt_failed(l, cmds, t);
}

/* Counts a reply to SET NX: OK is yes, nil (held elsewhere) no. */
int redislock_vote_set(const redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_STATUS && cmd->reply->len == 2
        && memcmp(cmd->reply->str, "OK", 2) == 0) {
        return 1;
    }
    return cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_NIL ? 0 : -1;
}

static void tally_set(redislock_tally *t, redislock_cmd *cmd)
{
    redislock_tally_vote(t, cmd, redislock_vote_set(cmd));
}

void redislock_attempt_cmd_init(redislock_attempt_cmd *a, const redislock_lock *l, zend_long mark_ms)
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
    redislock_call_init(c);
    /* A plain command in the same arrays: SET key token NX PX ttl. */
    c->argc = 0;
    redislock_call_arg(c, "SET", 3);
    redislock_call_arg(c, ZSTR_VAL(REDISLOCK_LKEY(l, LOCK)), ZSTR_LEN(REDISLOCK_LKEY(l, LOCK)));
    redislock_call_arg(c, l->token, REDISLOCK_TOKEN_LEN);
    redislock_call_arg(c, "NX", 2);
    redislock_call_arg(c, "PX", 2);
    redislock_call_long(c, l->settings.ttl);
}

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
bool redislock_lock_fence_recorded(redislock_lock *l, zend_long fence)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_call c;

    static const redislock_key_kind keys[] = { REDISLOCK_KEY_FENCE };

    redislock_lock_call_init(&c, l, keys, 1, false);
    redislock_call_long(&c, fence);
    redislock_lock_call_all(l, &redislock_script_fence_raise, cmds, &c, redislock_vote_integer);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    redislock_cmds_dtor(cmds, n);
    return t.yes >= redislock_lock_quorum(l);
}

int redislock_lock_try(redislock_lock *l, zend_long mark_ms, bool *result, zend_long *pttl)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_attempt_cmd a;
    uint64_t start, valid_until;
    zend_long fence = 0;

    *result = false;
    *pttl = -1;
    l->has_token = true;
    l->pid = redislock_pid();
    redislock_attempt_cmd_init(&a, l, mark_ms);
    start = redislock_now_us();
    if (a.scripted) {
        redislock_lock_call_all(l, &redislock_script_acquire, cmds, &a.c, redislock_vote_acquire_script);
    } else {
        redislock_lock_send_all(l, cmds, a.c.argc, a.c.argv, a.c.lens, redislock_vote_set);
    }
    for (uint32_t i = 0; i < n; i++) {
        redislock_attempt_tally(&t, &cmds[i], &a, &fence, pttl);
    }
    if (mark_ms > 0) {
        note_marked_round(l, cmds, start);
    }
    l->placed = t.mayhold;
    valid_until = redislock_lock_validity_end(start, l->settings.ttl);
    return redislock_lock_attempt_end(l, cmds, &t,
                                      t.yes >= redislock_lock_quorum(l) && redislock_now_us() < valid_until
                                          && (!l->settings.fencing || n == 1 || redislock_lock_fence_recorded(l, fence)),
                                      valid_until, fence, result);
}

/* A wait took the lock (a wake-up, a hand-over): checks what its lease is
 * worth. *result stays true when the lock is still ours. */
static void taken_by_wait(redislock_lock *l, const redislock_wait_state *w, bool *result)
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
        redislock_lock_extend_hold(l, l->settings.ttl, result, "acquire");
        *result = l->held;
    }
}

/* Takes the lock (see redislock_lock_acquire), replicas aside. */
static int acquire_now(redislock_lock *l, zend_long wait_ms, bool *result)
{
    const redislock_wait_ops *ops = l->wait;
    redislock_wait_state w = {
        .deadline = redislock_now_us() + (uint64_t) wait_ms * 1000,
        .waiting = wait_ms > 0,
        .blocking = true,
        /* A lock that had to wait before is likely to again: its first
         * attempt marks it as waited for (one command less than a SET that
         * fails, then the marking script). */
        .marked = l->waited_before && wait_ms > 0,
        .pttl = -1,
        .cap = REDISLOCK_BACKOFF_MIN_US,
    };

    if (redislock_lock_holding(l)) {
        /* Already ours: renew the lease instead of queueing behind ourselves. */
        if (redislock_lock_extend_hold(l, l->settings.ttl, result, "acquire") != REDISLOCK_OK || *result) {
            return *result ? REDISLOCK_OK : REDISLOCK_ERR;
        }
    }
    if (redislock_lock_owned(l)) {
        redislock_lock_cleanup(l, redislock_lock_all_servers(l), redislock_lock_op_deadline(l));
    }
    /* One token for all attempts of this call: in fair mode it is also our
     * place in the queue. */
    if (new_token(l) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    l->placed = redislock_lock_all_servers(l);
    l->fair_slot = -1;
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
        l->waited_before = true;
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

int redislock_lock_acquire(redislock_lock *l, zend_long wait_ms, bool *result)
{
    int rc;

    *result = false;
    /* The grant and the check of its replication on one node. */
    redislock_route_pin(l->settings.servers);
    rc = acquire_now(l, wait_ms, result);
    if (rc == REDISLOCK_OK) {
        rc = redislock_lock_sync(l, "acquire", result);
    }
    redislock_route_unpin(l->settings.servers);
    if (*result) {
        /* Counted once reported: a grant refused for want of replicas is none. */
        REDISLOCK_G(stats).acquired++;
    }
    return rc;
}

void redislock_lock_init(redislock_lock *l, const zend_string *prefix, const zend_string *name)
{
    redislock_keys_init(&l->keys, prefix, name, redislock_servers_cluster(l->settings.servers));
    l->wait = redislock_wait_for(&l->settings);
}

void redislock_lock_dtor(redislock_lock *l)
{
    redislock_keys_free(&l->keys);
}

zend_long redislock_lock_remaining(const redislock_lock *l)
{
    uint64_t now;

    if (!redislock_lock_holding(l)) {
        return 0;
    }
    now = redislock_now_us();
    return now >= l->valid_until ? 0 : (zend_long) ((l->valid_until - now) / 1000);
}
