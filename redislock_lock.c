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
#include "redislock_scripts.h"

#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif

#include <unistd.h>

#define BACKOFF_MIN_US 2000    /* first retry delay ceiling */
#define BACKOFF_MAX_US 50000   /* longest retry delay */
#define REDISLOCK_QUEUE_STAY_MS 2000 /* fair mode: a waiter's place lasts this long unless renewed */
#define BLOCK_MIN_US 100000    /* shortest BLPOP: the server's timeout granularity at hz 10 */
#define BLOCK_SLACK_MS 250     /* how late a BLPOP timeout may come back (server hz) */
/* A waiter tries again at least this often: the key can go without a
 * release (DEL, FLUSHALL, eviction), and then nobody wakes it. */
#define WAIT_RECHECK_US 1000000
/* Fair mode: a release hands the lock to the next waiter with a lease of
 * at most this long, which the waiter renews to its ttl as soon as it
 * wakes; a waiter that died meanwhile holds up the others no longer. */
#define REDISLOCK_HANDOVER_MS REDISLOCK_QUEUE_STAY_MS

static uint32_t quorum(const redislock_lock *l)
{
    return l->settings.servers->count / 2 + 1;
}

/* The mask of all the lock's servers. */
static uint32_t all_servers(const redislock_lock *l)
{
    return ((uint32_t) 1 << l->settings.servers->count) - 1;
}

/* Timeouts for one exchange. With several servers each one gets at most
 * quorum_timeout, small next to the ttl as Redlock wants, so that a slow or
 * frozen minority costs little of the lease. */
static redislock_netopts netopts(const redislock_lock *l)
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
static uint64_t validity_end(uint64_t start, zend_long ttl)
{
    uint64_t lease = (uint64_t) ttl * 1000, drift = (uint64_t) ttl * 10 + 2000;

    return lease > drift ? start + lease - drift : start;
}

/* Sends one command (argv) to every server of the lock. */
static void exec_all(redislock_lock *l, redislock_cmd *cmds, int argc, const char **argv, const size_t *lens)
{
    redislock_netopts o = netopts(l);

    redislock_round_send(l->settings.servers, all_servers(l), &o, cmds, argc, argv, lens);
}

/* Runs a script on every server of the lock (see redislock_round_script()). */
static void script_all(redislock_lock *l, const redislock_script *script, redislock_cmd *cmds, int argc,
                       const char **argv, size_t *lens)
{
    redislock_netopts o = netopts(l);

    redislock_round_script(l->settings.servers, all_servers(l), &o, script, cmds, argc, argv, lens);
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
    redislock_netopts o = netopts(l);

    release_on(l, all_servers(l), &o, cmds, leaving);
}

/* Keeps our token on server i as a leftover, to be removed later (see
 * redislock_leftovers.h). */
static void keep_leftover(redislock_lock *l, uint32_t i, redislock_leftover_group *group)
{
    release_cmd r;
    redislock_netopts o = netopts(l);
    char *buf = NULL;
    size_t len;

    release_cmd_init(&r, l, true);
    r.argv[0] = "EVAL";
    r.lens[0] = 4;
    r.argv[1] = r.script->body;
    r.lens[1] = r.script->len;
    len = redislock_format(&buf, r.argc, r.argv, r.lens);
    redislock_leftovers_add(l->settings.servers, i, buf, len, &o, group);
    redisFreeCommand(buf);
}

void redislock_lock_abandon(redislock_lock *l, bool counted)
{
    redislock_leftover_group *group;

    if (!redislock_lock_owned(l)) {
        return;
    }
    group = counted ? redislock_leftover_group_new(quorum(l)) : NULL;
    for (uint32_t i = 0; i < l->settings.servers->count; i++) {
        keep_leftover(l, i, group);
    }
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
static void cleanup(redislock_lock *l, uint32_t mask, uint64_t deadline)
{
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_netopts o = netopts(l);
    uint32_t n;

    o.deadline = deadline;
    n = mask ? release_on(l, mask, &o, cmds, true) : 0;
    for (uint32_t i = 0; i < n; i++) {
        if (cmds[i].status != REDISLOCK_CMD_OK || cmds[i].reply->type != REDIS_REPLY_INTEGER) {
            keep_leftover(l, cmds[i].idx, NULL);
        }
    }
    redislock_cmds_dtor(cmds, n);
    l->has_token = false;
    l->held = false;
}

/* The deadline of an operation that starts now: one read timeout. */
static uint64_t op_deadline(const redislock_lock *l)
{
    return redislock_now_us() + (uint64_t) netopts(l).read_timeout * 1000;
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
    for (uint32_t i = 0; i < n; i++) {
        if (t->mayhold & ~t->replied & ((uint32_t) 1 << i)) {
            keep_leftover(l, i, NULL);
        }
    }
    cleanup(l, t->mayhold & t->replied, op_deadline(l));
    l->has_token = false;
    l->held = false;
    if (t->yes + t->no < quorum(l)) {
        return REDISLOCK_ERR;
    }
    REDISLOCK_G(stats).contended++;
    return REDISLOCK_OK;
}

/* Records that the lock is ours until valid_until. */
static void hold_granted(redislock_lock *l, uint64_t valid_until, zend_long fence)
{
    l->held = true;
    l->valid_until = valid_until;
    l->fence = fence;
    REDISLOCK_G(stats).acquired++;
}

/* Ends an attempt: granted when the servers said so (granted) and validity
 * is left, failed otherwise. */
static int attempt_end(redislock_lock *l, redislock_cmd *cmds, const redislock_tally *t, bool granted, uint64_t valid_until,
                       zend_long fence, bool *result)
{
    if (granted && redislock_now_us() < valid_until) {
        hold_granted(l, valid_until, fence);
        redislock_cmds_dtor(cmds, l->settings.servers->count);
        *result = true;
        return REDISLOCK_OK;
    }
    return attempt_failed(l, cmds, t);
}

/* Counts a reply to SET NX: OK is yes, nil (held elsewhere) no. */
static void tally_set(redislock_tally *t, redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_STATUS) {
        redislock_tally_yes(t, cmd);
    } else if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_NIL) {
        redislock_tally_no(t, cmd);
    } else {
        redislock_tally_failure(t, cmd);
    }
}

/* The command of one attempt outside fair mode: SET key token NX PX ttl,
 * or the acquire script (scripted) when a fence is wanted or the caller
 * will wait wait_ms for a release; argv[0] and argv[1] of the script are
 * left to the sender (EVALSHA and the sha, or script_all()). argv points
 * into the struct itself, which therefore stays where it was set up. */
typedef struct attempt_cmd {
    const char *argv[10];
    size_t lens[10];
    int argc;
    bool scripted;
    char ttl[24], wait[24];
} attempt_cmd;

static void attempt_cmd_init(attempt_cmd *a, const redislock_lock *l, zend_long wait_ms)
{
    size_t ttl_len = (size_t) snprintf(a->ttl, sizeof(a->ttl), ZEND_LONG_FMT, l->settings.ttl);

    a->scripted = l->settings.fencing || wait_ms > 0;
    if (a->scripted) {
        const char *argv[10] = { NULL, NULL, "3", ZSTR_VAL(l->key), ZSTR_VAL(l->fence_key), ZSTR_VAL(l->wait_key),
                                 l->token, a->ttl, l->settings.fencing ? "1" : "0", a->wait };
        size_t lens[10] = { 0, 0, 1, ZSTR_LEN(l->key), ZSTR_LEN(l->fence_key), ZSTR_LEN(l->wait_key),
                            REDISLOCK_TOKEN_LEN, ttl_len, 1, 0 };
        lens[9] = (size_t) snprintf(a->wait, sizeof(a->wait), ZEND_LONG_FMT, wait_ms);
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

/* Counts the answer to an attempt_cmd. */
static void tally_attempt(redislock_tally *t, redislock_cmd *cmd, const attempt_cmd *a, zend_long *fence, zend_long *pttl)
{
    if (a->scripted) {
        tally_acquire_script(t, cmd, fence, pttl);
    } else {
        tally_set(t, cmd);
    }
}

/* Fair mode (one server): the lock goes to the waiter at the head of the
 * queue. A caller that will wait joins the queue, or renews its place. */
static int try_acquire_fair(redislock_lock *l, bool waiting, bool *result, zend_long *pttl)
{
    redislock_cmd cmds[1];
    redislock_tally t = { 0 };
    char ttl[24], stay[24];
    zend_long fence = 0, lease = l->settings.ttl;
    uint64_t start = redislock_now_us();
    const char *argv[12] = { NULL, NULL, "5", ZSTR_VAL(l->key), ZSTR_VAL(l->fence_key), ZSTR_VAL(l->queue_key),
                             ZSTR_VAL(l->queue_exp_key), ZSTR_VAL(l->wake_prefix), l->token, ttl,
                             l->settings.fencing ? "1" : "0", stay };
    size_t lens[12] = { 0, 0, 1, ZSTR_LEN(l->key), ZSTR_LEN(l->fence_key), ZSTR_LEN(l->queue_key),
                        ZSTR_LEN(l->queue_exp_key), ZSTR_LEN(l->wake_prefix), REDISLOCK_TOKEN_LEN, 0, 1, 0 };

    lens[9] = (size_t) snprintf(ttl, sizeof(ttl), ZEND_LONG_FMT, l->settings.ttl);
    lens[11] = (size_t) snprintf(stay, sizeof(stay), "%d", waiting ? REDISLOCK_QUEUE_STAY_MS : 0);
    script_all(l, &redislock_script_acquire_fair, cmds, 12, argv, lens);
    redisReply *r = cmds[0].reply;
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
            *pttl = (zend_long) r->element[1]->integer;
        }
    } else {
        redislock_tally_failure(&t, &cmds[0]);
    }
    return attempt_end(l, cmds, &t, t.yes == 1, validity_end(start, lease), fence, result);
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
    script_all(l, &redislock_script_fence_raise, cmds, 5, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    redislock_cmds_dtor(cmds, n);
    return t.yes >= quorum(l);
}

/* One attempt on every server: SET key token NX PX ttl, or the acquire
 * script when a fence is wanted or the caller will wait wait_ms for a
 * release (one server only: it marks the lock as waited for), or the fair
 * mode script. *pttl gets the holder's remaining lease
 * when it is known (-1 otherwise). */
static int try_acquire(redislock_lock *l, zend_long wait_ms, bool *result, zend_long *pttl)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    attempt_cmd a;
    uint64_t start, valid_until;
    zend_long fence = 0;

    *result = false;
    *pttl = -1;
    l->has_token = true;
    l->pid = redislock_pid();
    if (l->settings.fair) {
        return try_acquire_fair(l, wait_ms > 0, result, pttl);
    }

    attempt_cmd_init(&a, l, wait_ms);
    start = redislock_now_us();
    if (a.scripted) {
        script_all(l, &redislock_script_acquire, cmds, a.argc, a.argv, a.lens);
    } else {
        exec_all(l, cmds, a.argc, a.argv, a.lens);
    }
    for (uint32_t i = 0; i < n; i++) {
        tally_attempt(&t, &cmds[i], &a, &fence, pttl);
    }
    valid_until = validity_end(start, l->settings.ttl);
    return attempt_end(l, cmds, &t,
                       t.yes >= quorum(l) && redislock_now_us() < valid_until
                           && (!l->settings.fencing || n == 1 || fence_recorded(l, fence)),
                       valid_until, fence, result);
}

/* How a wait for a release ended. */
#define WAIT_UNSUPPORTED 0 /* the server cannot block (an ACL without BLPOP, say): sleep instead */
#define WAIT_WOKEN 1       /* woken, or the wait timed out: try again */

/* The fence a fair hand-over carries in its wake-up (0 when there is none). */
static zend_long handover_fence(const redisReply *popped)
{
    if (popped->type == REDIS_REPLY_ARRAY && popped->elements == 2 && popped->element[1]->type == REDIS_REPLY_STRING) {
        return ZEND_STRTOL(popped->element[1]->str, NULL, 10);
    }
    return 0;
}

/* Blocks until a release wakes us (BLPOP on the lock's wake-up list) or
 * timeout_us pass, and has the server try for the lock the moment the
 * BLPOP returns, before any other client is served: the BLPOP goes out
 * pipelined with SET NX PX, or in fair mode, where the wake-up is the lock
 * itself handed over with a short lease, with extend.lua to renew that
 * lease. *result tells whether that made the lock ours. */
static int wait_for_release(redislock_lock *l, uint64_t timeout_us, bool *result)
{
    redislock_cmd cmd;
    redislock_netopts o = netopts(l);
    bool fair = l->settings.fair;
    char secs[32], ttl[24];
    zend_string *list = fair ? zend_string_concat2(ZSTR_VAL(l->wake_prefix), ZSTR_LEN(l->wake_prefix), l->token,
                                                   REDISLOCK_TOKEN_LEN)
                             : zend_string_copy(l->wake_key);
    const char *argv[3] = { "BLPOP", ZSTR_VAL(list), secs };
    size_t lens[3] = { 5, ZSTR_LEN(list), 0 };
    const char *renew[6] = { "EVALSHA", redislock_script_extend.sha, "1", ZSTR_VAL(l->key), l->token, ttl };
    size_t renew_lens[6] = { 7, 40, 1, ZSTR_LEN(l->key), REDISLOCK_TOKEN_LEN, 0 };
    attempt_cmd a;
    const redisReply *popped;
    uint64_t sent_at, valid_until;
    zend_long fence = 0;
    redislock_tally t = { 0 };
    int ended;

    *result = false;
    if (fair) {
        /* Come back before our place in the queue expires, to renew it. */
        timeout_us = MIN(timeout_us, REDISLOCK_QUEUE_STAY_MS * 500);
    }
    timeout_us = MAX(timeout_us, 1000);
    lens[2] = (size_t) snprintf(secs, sizeof(secs), "%.3f", (double) timeout_us / 1e6);
    renew_lens[5] = (size_t) snprintf(ttl, sizeof(ttl), ZEND_LONG_FMT, l->settings.ttl);
    /* The server answers when woken or when its own timeout ends, which
     * it notices on its next timer tick. */
    o.read_timeout += (zend_long) (timeout_us / 1000) + BLOCK_SLACK_MS;
    sent_at = redislock_now_us();
    if (fair) {
        redislock_round_pair(&l->settings.servers->server[0], &cmd, &o, 3, argv, lens, 6, renew, renew_lens);
    } else {
        /* The next attempt; with fencing the acquire script, which numbers
         * the grant. */
        attempt_cmd_init(&a, l, 0);
        if (a.scripted) {
            a.argv[0] = "EVALSHA";
            a.lens[0] = 7;
            a.argv[1] = redislock_script_acquire.sha;
            a.lens[1] = 40;
        }
        l->has_token = true;
        l->pid = redislock_pid();
        redislock_round_pair(&l->settings.servers->server[0], &cmd, &o, 3, argv, lens, a.argc, a.argv, a.lens);
    }
    zend_string_release(list);
    /* The wake-up, when the replies to both commands came. */
    popped = redislock_cmd_reply(&cmd, 1) ? redislock_cmd_reply(&cmd, 0) : NULL;
    ended = popped && popped->type != REDIS_REPLY_ERROR ? WAIT_WOKEN : WAIT_UNSUPPORTED;
    if (ended == WAIT_WOKEN) {
        REDISLOCK_G(stats).waits++;
    }

    if (fair) {
        if (ended == WAIT_WOKEN) {
            redislock_cmd again, *renewed = &cmd;

            if (redislock_cmd_noscript(&cmd)) {
                /* The server lost extend.lua: renew again the way that loads it. */
                renew[0] = NULL;
                script_all(l, &redislock_script_extend, &again, 6, renew, renew_lens);
                renewed = &again;
            }
            redislock_tally_integer(&t, renewed);
            if (renewed == &again) {
                redislock_cmds_dtor(&again, 1);
            }
            if (t.yes == 1) {
                /* The renewal ran after the BLPOP returned, so after it was
                 * sent: the lease is dated from then, by our own clock. */
                valid_until = validity_end(sent_at, l->settings.ttl);
                fence = handover_fence(popped);
                l->has_token = true;
                l->pid = redislock_pid();
                hold_granted(l, valid_until, fence);
                *result = true;
            }
        }
        /* Otherwise the place stays ours, and a lease handed over is found
         * by the next attempt (or passed on when we give up). */
        redislock_cmds_dtor(&cmd, 1);
        return ended;
    }

    /* The attempt ran, whatever came of the BLPOP: right away when the
     * BLPOP was refused. A server that lost the acquire script ran nothing:
     * the next attempt loads it again. */
    if (!popped) {
        redislock_tally_failure(&t, &cmd);
    } else if (a.scripted && redislock_cmd_noscript(&cmd)) {
        redislock_tally_no(&t, &cmd);
    } else {
        zend_long pttl = -1;
        tally_attempt(&t, &cmd, &a, &fence, &pttl);
    }
    /* The SET ran after the BLPOP returned, so after it was sent: the lease
     * is dated from then, by our own clock, never by the server's. */
    valid_until = validity_end(sent_at, l->settings.ttl);
    if (attempt_end(l, &cmd, &t, t.yes == 1, valid_until, fence, result) != REDISLOCK_OK) {
        /* No answer: the next attempt finds out whether the server is gone. */
        ended = WAIT_UNSUPPORTED;
    }
    return ended;
}

/* A random delay in [cap/2, cap] microseconds. */
static uint64_t jitter(uint64_t cap)
{
    uint32_t r = 0;

    if (php_random_bytes_silent(&r, sizeof(r)) == FAILURE) {
        r = (uint32_t) redislock_now_us();
    }
    return cap / 2 + r % (cap / 2 + 1);
}

static int extend_hold(redislock_lock *l, zend_long ttl, bool *result, const char *what);

int redislock_lock_acquire(redislock_lock *l, zend_long wait_ms, bool *result)
{
    uint64_t start = redislock_now_us();
    uint64_t deadline = start + (uint64_t) wait_ms * 1000;
    uint64_t cap = BACKOFF_MIN_US;

    if (redislock_lock_owned(l) && l->held) {
        /* Already ours: renew the lease instead of queueing behind ourselves. */
        if (extend_hold(l, l->settings.ttl, result, "acquire") != REDISLOCK_OK || *result) {
            return *result ? REDISLOCK_OK : REDISLOCK_ERR;
        }
    }
    if (redislock_lock_owned(l)) {
        cleanup(l, all_servers(l), op_deadline(l));
    }
    /* One token for all attempts of this call: in fair mode it is also our
     * place in the queue. */
    if (new_token(l) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    /* One server: sleep until a release wakes us (or the holder's lease
     * runs out). Several servers: Redlock's random backoff. */
    bool wakeups = l->settings.servers->count == 1;
    /* How the next attempt goes: first a plain SET NX PX (fair mode always
     * runs its script); a waiter whose attempt failed then makes the one
     * that marks the lock as waited for (acquire.lua), which lasts for the
     * whole wait, and blocks: the attempt after a wake-up goes with the
     * BLPOP (see wait_for_release()). */
    enum { PLAIN, MARK } next = l->settings.fair ? MARK : PLAIN;
    for (;;) {
        uint64_t now = redislock_now_us(), left = now < deadline ? deadline - now : 0;
        zend_long pttl;
        int rc;

        rc = try_acquire(l, wakeups && next == MARK ? (zend_long) (left / 1000) : 0, result, &pttl);
        if (rc != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        now = redislock_now_us();
        if (*result) {
            return REDISLOCK_OK;
        }
        if (next == PLAIN && wakeups && now < deadline) {
            next = MARK;
            continue;
        }
        if (now >= deadline) {
            if (l->settings.fair && wait_ms > 0) {
                /* Leave the queue at once, passing on the lock if a release
                 * handed it over meanwhile. Failures are ignored: the place
                 * expires on its own, and a hand-over's lease is short. */
                cleanup(l, all_servers(l), op_deadline(l));
            }
            return REDISLOCK_OK;
        }
        left = deadline - now;
        if (wakeups) {
            /* PTTL 0: the lease ends within this millisecond; -1: it has no
             * expiry, so only a release ends it. */
            uint64_t until_expiry = pttl >= 0 ? (uint64_t) MAX(pttl, 1) * 1000 : left;
            uint64_t block = MIN(MIN(left, until_expiry), WAIT_RECHECK_US);
            /* The server checks blocking timeouts about every 100 ms (hz 10),
             * so a shorter block would end late: sleep in short steps then. */
            if (block >= BLOCK_MIN_US) {
                int ended = wait_for_release(l, block, result);

                if (*result && redislock_now_us() >= l->valid_until) {
                    /* Handed over, but too late to be of use: pass it on. */
                    cleanup(l, all_servers(l), op_deadline(l));
                    *result = false;
                }
                if (*result && l->valid_until - redislock_now_us() < (uint64_t) l->settings.ttl * 500
                    && redislock_now_us() + (uint64_t) netopts(l).read_timeout * 1000 <= deadline) {
                    /* Less than half the lease is proven (it counts from
                     * when the wait began): renew it, dated from now, when
                     * the wait has time left for it. An error leaves the
                     * shorter validity, which is still true; a lock found
                     * lost meanwhile is waited for again. */
                    extend_hold(l, l->settings.ttl, result, "acquire");
                    *result = l->held;
                }
                if (*result) {
                    return REDISLOCK_OK;
                }
                if (ended == WAIT_WOKEN) {
                    if (!l->settings.fair && redislock_now_us() >= deadline) {
                        /* The SET that went with the BLPOP was the last try. */
                        return REDISLOCK_OK;
                    }
                    continue;
                }
                wakeups = false;
            } else {
                left = block;
            }
        }
        usleep((useconds_t) MIN(jitter(cap), left));
        cap = MIN(cap * 2, BACKOFF_MAX_US);
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
    for (uint32_t i = 0; i < n; i++) {
        if (!(t.definite & ((uint32_t) 1 << i))) {
            keep_leftover(l, i, NULL);
        }
    }
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
    script_all(l, &redislock_script_extend, cmds, 6, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    valid_until = validity_end(start, ttl);
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
    if (all_servers(l) & ~(t.definite & ~t.mayhold)) {
        cleanup(l, all_servers(l) & ~(t.definite & ~t.mayhold), op_deadline(l));
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
