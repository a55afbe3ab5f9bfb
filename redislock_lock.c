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
#include "redislock_lock.h"
#include "redislock_leftovers.h"
#include "redislock_pool.h"
#include "redislock_round.h"
#include "redislock_wait.h"
#include "redislock_scripts.h"

#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif

static uint32_t quorum(const redislock_lock *l)
{
    return l->settings.servers->count / 2 + 1;
}

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
static void exec_all(redislock_lock *l, redislock_cmd *cmds, int argc, const char **argv, const size_t *lens)
{
    redislock_netopts o = redislock_lock_netopts(l);

    redislock_round_send(l->settings.servers, redislock_lock_all_servers(l), &o, cmds, argc, argv, lens);
}

/* Runs a script on every server of the lock (see redislock_round_script()). */
void redislock_lock_script_all(redislock_lock *l, const redislock_script *script, redislock_cmd *cmds, int argc,
                               const char **argv, size_t *lens)
{
    redislock_netopts o = redislock_lock_netopts(l);

    redislock_round_script(l->settings.servers, redislock_lock_all_servers(l), &o, script, cmds, argc, argv, lens);
}

/* The release script's command: KEYS = lock, waiters marker, wake-up
 * list; ARGV = token. In fair mode the lock passes to the next waiter, and
 * with leaving set our place in the queue (if any) goes too. argv[0] and
 * argv[1] are left to the sender (redislock_round_script(), or EVAL for a
 * leftover).
 * argv points into the struct, which therefore stays where it was set up. */
typedef struct release_cmd {
    const redislock_script *script;
    const char *argv[13];
    size_t lens[13];
    int argc;
    char ttl[24], handover[24];
} release_cmd;

static void release_cmd_init(release_cmd *r, const redislock_lock *l, bool leaving)
{
    if (l->settings.fair) {
        const char *argv[13] = { NULL, NULL, "5", ZSTR_VAL(l->key), ZSTR_VAL(l->fence_key), ZSTR_VAL(l->queue_key),
                                 ZSTR_VAL(l->queue_exp_key), ZSTR_VAL(l->wake_prefix), l->token, r->ttl,
                                 l->settings.fencing ? "1" : "0", leaving ? "1" : "0", r->handover };
        size_t lens[13] = { 0, 0, 1, ZSTR_LEN(l->key), ZSTR_LEN(l->fence_key), ZSTR_LEN(l->queue_key),
                            ZSTR_LEN(l->queue_exp_key), ZSTR_LEN(l->wake_prefix), REDISLOCK_TOKEN_LEN, 0, 1, 1, 0 };
        lens[9] = (size_t) snprintf(r->ttl, sizeof(r->ttl), ZEND_LONG_FMT, l->settings.ttl);
        lens[12] = (size_t) snprintf(r->handover, sizeof(r->handover), "%d", REDISLOCK_HANDOVER_MS);
        memcpy(r->argv, argv, sizeof(argv));
        memcpy(r->lens, lens, sizeof(lens));
        r->argc = 13;
        r->script = &redislock_script_release_fair;
        return;
    }
    const char *argv[7] = { NULL, NULL, "3", ZSTR_VAL(l->key), ZSTR_VAL(l->wait_key), ZSTR_VAL(l->wake_key), l->token };
    size_t lens[7] = { 0, 0, 1, ZSTR_LEN(l->key), ZSTR_LEN(l->wait_key), ZSTR_LEN(l->wake_key), REDISLOCK_TOKEN_LEN };
    memcpy(r->argv, argv, sizeof(argv));
    memcpy(r->lens, lens, sizeof(lens));
    r->argc = 7;
    r->script = &redislock_script_release;
}

/* Runs the release script on the lock's servers in mask. Returns the number
 * of commands in cmds. */
static uint32_t release_on(redislock_lock *l, uint32_t mask, const redislock_netopts *o, redislock_cmd *cmds,
                           bool leaving)
{
    release_cmd r;

    release_cmd_init(&r, l, leaving);
    return redislock_round_script(l->settings.servers, mask, o, r.script, cmds, r.argc, r.argv, r.lens);
}

/* Runs the release script on every server of the lock. */
static void release_all(redislock_lock *l, redislock_cmd *cmds, bool leaving)
{
    redislock_netopts o = redislock_lock_netopts(l);

    release_on(l, redislock_lock_all_servers(l), &o, cmds, leaving);
}

/* Keeps our token on the servers in mask as leftovers, to be removed later
 * (see redislock_leftovers.h): one release command, encoded once, for each. */
static void keep_leftovers(redislock_lock *l, uint32_t mask, redislock_leftover_group *group)
{
    release_cmd r;
    redislock_netopts o = redislock_lock_netopts(l);
    smart_str buf = { 0 };

    if (!mask) {
        return;
    }
    release_cmd_init(&r, l, true);
    r.argv[0] = "EVAL";
    r.lens[0] = 4;
    r.argv[1] = r.script->body;
    r.lens[1] = r.script->len;
    redislock_encode(&buf, r.argc, r.argv, r.lens);
    for (uint32_t i = 0; i < l->settings.servers->count; i++) {
        if (mask & ((uint32_t) 1 << i)) {
            redislock_leftovers_add(l->settings.servers, i, ZSTR_VAL(buf.s), ZSTR_LEN(buf.s), &o, group);
        }
    }
    smart_str_free(&buf);
}

void redislock_lock_abandon(redislock_lock *l, bool counted)
{
    redislock_leftover_group *group;

    if (!redislock_lock_owned(l)) {
        return;
    }
    group = counted ? redislock_leftover_group_new(quorum(l)) : NULL;
    keep_leftovers(l, redislock_lock_all_servers(l), group);
    l->has_token = false;
    l->held = false;
}

/* Writes why the servers could not answer into l->error. */
static void describe_failure(redislock_lock *l, const redislock_cmd *cmds, const redislock_tally *t, const char *what)
{
    redislock_tally_describe(t, l->settings.servers->count, quorum(l), cmds, what, l->error, sizeof(l->error));
}

/* Removes our token from the servers in mask, where it may sit after a
 * failed attempt or a lost hold, within the operation's deadline (monotonic
 * us). A server that does not answer keeps it as a leftover, removed later. */
void redislock_lock_cleanup(redislock_lock *l, uint32_t mask, uint64_t deadline)
{
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_netopts o = redislock_lock_netopts(l);
    uint32_t n, unanswered = 0;

    o.deadline = deadline;
    n = mask ? release_on(l, mask, &o, cmds, true) : 0;
    for (uint32_t i = 0; i < n; i++) {
        if (cmds[i].status != REDISLOCK_CMD_OK || cmds[i].reply->type != REDIS_REPLY_INTEGER) {
            unanswered |= (uint32_t) 1 << cmds[i].idx;
        }
    }
    redislock_cmds_dtor(cmds, n);
    keep_leftovers(l, unanswered, NULL);
    l->has_token = false;
    l->held = false;
}

/* The deadline of an operation that starts now: one read timeout. */
uint64_t redislock_lock_op_deadline(const redislock_lock *l)
{
    return redislock_now_us() + (uint64_t) redislock_lock_netopts(l).read_timeout * 1000;
}

static int new_token(redislock_lock *l)
{
    unsigned char raw[REDISLOCK_TOKEN_BYTES];
    static const char hex[] = "0123456789abcdef";

    if (php_random_bytes_throw(raw, sizeof(raw)) == FAILURE) {
        return REDISLOCK_ERR;
    }
    for (size_t i = 0; i < sizeof(raw); i++) {
        l->token[2 * i] = hex[raw[i] >> 4];
        l->token[2 * i + 1] = hex[raw[i] & 15];
    }
    l->token[REDISLOCK_TOKEN_LEN] = '\0';
    return REDISLOCK_OK;
}

/* Reads the acquire script's answer, {1, fence} or {0, holder's pttl}, into
 * the tally. */
static void tally_acquire_script(redislock_tally *t, redislock_cmd *cmd, zend_long *fence, zend_long *pttl)
{
    redisReply *r = cmd->reply;

    if (cmd->status == REDISLOCK_CMD_OK && r->type == REDIS_REPLY_ARRAY && r->elements == 2
        && r->element[0]->type == REDIS_REPLY_INTEGER && r->element[1]->type == REDIS_REPLY_INTEGER) {
        if (r->element[0]->integer == 1) {
            redislock_tally_yes(t, cmd);
            *fence = MAX(*fence, (zend_long) r->element[1]->integer);
        } else {
            redislock_tally_no(t, cmd);
            *pttl = MAX(*pttl, (zend_long) r->element[1]->integer);
        }
        return;
    }
    redislock_tally_failure(t, cmd);
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

    if (t->yes + t->no < quorum(l)) {
        describe_failure(l, cmds, t, "acquire");
    }
    redislock_cmds_dtor(cmds, n);
    keep_leftovers(l, t->mayhold & ~t->replied, NULL);
    redislock_lock_cleanup(l, t->mayhold & t->replied, redislock_lock_op_deadline(l));
    if (t->yes + t->no < quorum(l)) {
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
    REDISLOCK_G(stats).acquired++;
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
static void tally_set(redislock_tally *t, redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_STATUS && cmd->reply->len == 2
        && memcmp(cmd->reply->str, "OK", 2) == 0) {
        redislock_tally_yes(t, cmd);
    } else if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_NIL) {
        redislock_tally_no(t, cmd);
    } else {
        redislock_tally_failure(t, cmd);
    }
}

void redislock_attempt_cmd_init(redislock_attempt_cmd *a, const redislock_lock *l, zend_long mark_ms)
{
    size_t ttl_len = (size_t) snprintf(a->ttl, sizeof(a->ttl), ZEND_LONG_FMT, l->settings.ttl);

    a->scripted = l->settings.fencing || mark_ms > 0;
    if (a->scripted) {
        const char *argv[10] = { NULL, NULL, "3", ZSTR_VAL(l->key), ZSTR_VAL(l->fence_key), ZSTR_VAL(l->wait_key),
                                 l->token, a->ttl, l->settings.fencing ? "1" : "0", a->wait };
        size_t lens[10] = { 0, 0, 1, ZSTR_LEN(l->key), ZSTR_LEN(l->fence_key), ZSTR_LEN(l->wait_key),
                            REDISLOCK_TOKEN_LEN, ttl_len, 1, 0 };
        lens[9] = (size_t) snprintf(a->wait, sizeof(a->wait), ZEND_LONG_FMT, mark_ms);
        memcpy(a->argv, argv, sizeof(argv));
        memcpy(a->lens, lens, sizeof(lens));
        a->argc = 10;
    } else {
        const char *argv[6] = { "SET", ZSTR_VAL(l->key), l->token, "NX", "PX", a->ttl };
        size_t lens[6] = { 3, ZSTR_LEN(l->key), REDISLOCK_TOKEN_LEN, 2, 2, ttl_len };
        memcpy(a->argv, argv, sizeof(argv));
        memcpy(a->lens, lens, sizeof(lens));
        a->argc = 6;
    }
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
static bool fence_recorded(redislock_lock *l, zend_long fence)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    char num[24];
    const char *argv[5] = { NULL, NULL, "1", ZSTR_VAL(l->fence_key), num };
    size_t lens[5] = { 0, 0, 1, ZSTR_LEN(l->fence_key), 0 };

    lens[4] = (size_t) snprintf(num, sizeof(num), ZEND_LONG_FMT, fence);
    redislock_lock_script_all(l, &redislock_script_fence_raise, cmds, 5, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    redislock_cmds_dtor(cmds, n);
    return t.yes >= quorum(l);
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
        redislock_lock_script_all(l, &redislock_script_acquire, cmds, a.argc, a.argv, a.lens);
    } else {
        exec_all(l, cmds, a.argc, a.argv, a.lens);
    }
    for (uint32_t i = 0; i < n; i++) {
        redislock_attempt_tally(&t, &cmds[i], &a, &fence, pttl);
    }
    valid_until = redislock_lock_validity_end(start, l->settings.ttl);
    return redislock_lock_attempt_end(l, cmds, &t,
                                      t.yes >= quorum(l) && redislock_now_us() < valid_until
                                          && (!l->settings.fencing || n == 1 || fence_recorded(l, fence)),
                                      valid_until, fence, result);
}

static int extend_hold(redislock_lock *l, zend_long ttl, bool *result, const char *what);

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
        extend_hold(l, l->settings.ttl, result, "acquire");
        *result = l->held;
    }
}

int redislock_lock_acquire(redislock_lock *l, zend_long wait_ms, bool *result)
{
    const redislock_wait_ops *ops = l->wait;
    redislock_wait_state w = {
        .deadline = redislock_now_us() + (uint64_t) wait_ms * 1000,
        .waiting = wait_ms > 0,
        .blocking = l->settings.servers->count == 1,
        .pttl = -1,
        .cap = REDISLOCK_BACKOFF_MIN_US,
    };

    if (redislock_lock_owned(l) && l->held) {
        /* Already ours: renew the lease instead of queueing behind ourselves. */
        if (extend_hold(l, l->settings.ttl, result, "acquire") != REDISLOCK_OK || *result) {
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

int redislock_lock_release(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_verdict verdict;

    *result = false;
    if (!redislock_lock_owned(l)) {
        return REDISLOCK_OK;
    }
    release_all(l, cmds, false);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    verdict = redislock_tally_verdict(&t, quorum(l));
    if (verdict == REDISLOCK_VERDICT_UNKNOWN) {
        /* Not known to be released: the hold stays, so that release() can
         * be called again, and the end of the request tries again. */
        describe_failure(l, cmds, &t, "release");
        redislock_cmds_dtor(cmds, n);
        return REDISLOCK_ERR;
    }
    redislock_cmds_dtor(cmds, n);
    /* Decided; a server that did not answer may still have our token. */
    keep_leftovers(l, redislock_lock_all_servers(l) & ~t.definite, NULL);
    l->has_token = false;
    l->held = false;
    *result = verdict == REDISLOCK_VERDICT_YES;
    if (*result) {
        REDISLOCK_G(stats).released++;
    } else {
        REDISLOCK_G(stats).released_lost++;
    }
    return REDISLOCK_OK;
}

/* Renews the lease; what names the operation in an error message. */
static int extend_hold(redislock_lock *l, zend_long ttl, bool *result, const char *what)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_verdict verdict;
    char arg[24];
    uint64_t start, valid_until;

    *result = false;
    if (!redislock_lock_owned(l) || !l->held) {
        return REDISLOCK_OK;
    }
    const char *argv[6] = { NULL, NULL, "1", ZSTR_VAL(l->key), l->token, arg };
    size_t lens[6] = { 0, 0, 1, ZSTR_LEN(l->key), REDISLOCK_TOKEN_LEN, 0 };
    lens[5] = (size_t) snprintf(arg, sizeof(arg), ZEND_LONG_FMT, ttl);
    start = redislock_now_us();
    redislock_lock_script_all(l, &redislock_script_extend, cmds, 6, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    valid_until = redislock_lock_validity_end(start, ttl);
    verdict = redislock_tally_verdict(&t, quorum(l));
    if (verdict == REDISLOCK_VERDICT_YES && redislock_now_us() < valid_until) {
        redislock_cmds_dtor(cmds, n);
        l->valid_until = valid_until;
        REDISLOCK_G(stats).extended++;
        *result = true;
        return REDISLOCK_OK;
    }
    if (verdict == REDISLOCK_VERDICT_UNKNOWN) {
        describe_failure(l, cmds, &t, what);
        redislock_cmds_dtor(cmds, n);
        return REDISLOCK_ERR;
    }
    redislock_cmds_dtor(cmds, n);
    /* Lost: what may be left of our token (on servers that did not say it
     * was gone) goes too. */
    REDISLOCK_G(stats).extend_failed++;
    l->held = false;
    if (redislock_lock_all_servers(l) & ~(t.definite & ~t.mayhold)) {
        redislock_lock_cleanup(l, redislock_lock_all_servers(l) & ~(t.definite & ~t.mayhold), redislock_lock_op_deadline(l));
    }
    return REDISLOCK_OK;
}

int redislock_lock_extend(redislock_lock *l, zend_long ttl, bool *result)
{
    return extend_hold(l, ttl, result, "extend");
}

int redislock_lock_check(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_verdict verdict;
    const char *argv[2] = { "GET", ZSTR_VAL(l->key) };
    size_t lens[2] = { 3, ZSTR_LEN(l->key) };

    *result = false;
    if (!redislock_lock_owned(l) || !l->held) {
        return REDISLOCK_OK;
    }
    exec_all(l, cmds, 2, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        redislock_cmd *cmd = &cmds[i];
        if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_STRING) {
            if (cmd->reply->len == REDISLOCK_TOKEN_LEN && memcmp(cmd->reply->str, l->token, REDISLOCK_TOKEN_LEN) == 0) {
                redislock_tally_yes(&t, cmd);
            } else {
                redislock_tally_no(&t, cmd);
            }
        } else if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_NIL) {
            redislock_tally_no(&t, cmd);
        } else {
            redislock_tally_failure(&t, cmd);
        }
    }
    verdict = redislock_tally_verdict(&t, quorum(l));
    if (verdict == REDISLOCK_VERDICT_UNKNOWN) {
        describe_failure(l, cmds, &t, "isAcquired");
        redislock_cmds_dtor(cmds, n);
        return REDISLOCK_ERR;
    }
    redislock_cmds_dtor(cmds, n);
    *result = verdict == REDISLOCK_VERDICT_YES;
    if (!*result) {
        l->held = false;
    }
    return REDISLOCK_OK;
}

static zend_string *aux_key(const zend_string *key, const char *suffix)
{
    return zend_string_concat2(ZSTR_VAL(key), ZSTR_LEN(key), suffix, strlen(suffix));
}

void redislock_lock_init_keys(redislock_lock *l)
{
    l->wait = redislock_wait_for(&l->settings);
    l->fence_key = aux_key(l->key, ":redislock-fence");
    l->wait_key = aux_key(l->key, ":redislock-wait");
    l->wake_key = aux_key(l->key, ":redislock-wake");
    l->wake_prefix = aux_key(l->key, ":redislock-wake:");
    l->queue_key = aux_key(l->key, ":redislock-queue");
    l->queue_exp_key = aux_key(l->key, ":redislock-queue-exp");
}

void redislock_lock_free_keys(redislock_lock *l)
{
    zend_string_release(l->key);
    zend_string_release(l->fence_key);
    zend_string_release(l->wait_key);
    zend_string_release(l->wake_key);
    zend_string_release(l->wake_prefix);
    zend_string_release(l->queue_key);
    zend_string_release(l->queue_exp_key);
}

zend_long redislock_lock_remaining(const redislock_lock *l)
{
    uint64_t now;

    if (!l->held) {
        return 0;
    }
    now = redislock_now_us();
    return now >= l->valid_until ? 0 : (zend_long) ((l->valid_until - now) / 1000);
}
