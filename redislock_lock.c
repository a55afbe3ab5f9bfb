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
void redislock_lock_send_all(redislock_lock *l, redislock_cmd *cmds, int argc, const char **argv, const size_t *lens)
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
        redislock_lock_script_all(l, &redislock_script_acquire, cmds, a.argc, a.argv, a.lens);
    } else {
        redislock_lock_send_all(l, cmds, a.argc, a.argv, a.lens);
    }
    for (uint32_t i = 0; i < n; i++) {
        redislock_attempt_tally(&t, &cmds[i], &a, &fence, pttl);
    }
    valid_until = redislock_lock_validity_end(start, l->settings.ttl);
    return redislock_lock_attempt_end(l, cmds, &t,
                                      t.yes >= redislock_lock_quorum(l) && redislock_now_us() < valid_until
                                          && (!l->settings.fencing || n == 1 || fence_recorded(l, fence)),
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
