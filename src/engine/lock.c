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
#include "engine/native.h"
#include "engine/shared.h"
#include "client/exec.h"
#include "client/cluster.h"
#include "base/clock.h"
#include "base/hex.h"
#include "base/process.h"
#include "base/resp.h"
#include "engine/round.h"
#include "engine/scripts.h"
#include "client/route_pin.h"

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

/* A round to every server of the lock. With several servers, a
 * connection that opens checks its server is not another's of the list
 * (netopts.identify); with a vote too, the round ends once its outcome is
 * known. */
void redislock_lock_decide_early(const redislock_lock *l, redislock_netopts *o, redislock_enough *e,
                                 const redislock_cmd *cmds, int (*vote)(const redislock_cmd *cmd))
{
    if (l->settings.servers->count > 1) {
        o->identify = true;
        if (vote) {
            e->cmds = cmds;
            e->n = l->settings.servers->count;
            e->quorum = redislock_lock_quorum(l);
            e->vote = vote;
            o->enough = e;
        }
    }
}

/* Sends one command (argv) to every server of the lock. */
void redislock_lock_send_all(redislock_lock *l, redislock_cmd *cmds, int argc, const char **argv, const size_t *lens,
                             int (*vote)(const redislock_cmd *cmd))
{
    redislock_netopts o = redislock_lock_netopts(l);
    redislock_enough e;

    redislock_lock_decide_early(l, &o, &e, cmds, vote);
    redislock_round_send(l->settings.servers, redislock_lock_all_servers(l), &o, cmds, argc, argv, lens);
}

/* KEYS of acquire_fair.lua and release_fair.lua, in their order. */
const redislock_key_kind redislock_lock_fair_keys[REDISLOCK_FAIR_KEYS] = {
    REDISLOCK_KEY_LOCK, REDISLOCK_KEY_FENCE, REDISLOCK_KEY_QUEUE, REDISLOCK_KEY_QUEUE_EXP, REDISLOCK_KEY_HANDOFF,
    REDISLOCK_KEY_TICKET, REDISLOCK_KEY_WAKE_SLOT + 0, REDISLOCK_KEY_WAKE_SLOT + 1, REDISLOCK_KEY_WAKE_SLOT + 2,
    REDISLOCK_KEY_WAKE_SLOT + 3, REDISLOCK_KEY_WAKE_SLOT + 4, REDISLOCK_KEY_WAKE_SLOT + 5,
    REDISLOCK_KEY_WAKE_SLOT + 6, REDISLOCK_KEY_WAKE_SLOT + 7,
};

/* The lock's keys of the kinds given, then the owner's arguments. */
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
void redislock_lock_describe_failure(redislock_lock *l, const redislock_cmd *cmds, const redislock_tally *t,
                                     const char *what)
{
    redislock_tally_describe(t, l->settings.servers->count, redislock_lock_quorum(l), cmds, what, &l->err);
}

/* The deadline of an operation that starts now: one read timeout. */
uint64_t redislock_lock_op_deadline(const redislock_lock *l)
{
    return redislock_now_us() + (uint64_t) redislock_lock_netopts(l).read_timeout * 1000;
}

/* The release script's call. Plain: KEYS = lock, waiters marker, wake-up
 * list, the readers' waiters marker and wake-up list; ARGV = token. Fair mode (the lock passes to the next waiter, and
 * with leaving set our place in the queue, if any, goes too): see
 * release_fair.lua. */
#define RELEASE_NAME_MAX 160

typedef struct release_cmd {
    const redislock_script *script;
    redislock_call c;
    char names[4][RELEASE_NAME_MAX]; /* the markers' and the wake-up lists', when not built */
} release_cmd;

static void release_cmd_init(release_cmd *r, const redislock_lock *l, bool leaving)
{
    static const redislock_key_kind keys[] = { REDISLOCK_KEY_WAIT, REDISLOCK_KEY_WAKE, REDISLOCK_KEY_RWAIT,
                                                REDISLOCK_KEY_RWAKE };
    redislock_call *c = &r->c;
    const char *name;
    size_t len;

    if (l->settings.fair) {
        redislock_lock_call_init(c, l, redislock_lock_fair_keys, REDISLOCK_FAIR_KEYS, true);
        redislock_call_bool(c, leaving);
        redislock_call_long(c, REDISLOCK_HANDOVER_MS);
        redislock_call_long(c, l->fair_slot);
        r->script = &redislock_script_release_fair;
        return;
    }
    redislock_call_init(c);
    redislock_call_key(c, REDISLOCK_LKEY(l, LOCK));
    /* The first time, their names are written out here rather than built:
     * most releases find nobody waiting, and an object used once would
     * build them only for this. */
    for (int i = 0; i < 4; i++) {
        name = redislock_keys_name((redislock_keys *) &l->keys, keys[i], r->names[i], RELEASE_NAME_MAX, &len);
        redislock_call_keyl(c, name, len);
    }
    redislock_call_arg(c, l->token, REDISLOCK_TOKEN_LEN);
    r->script = &redislock_script_release;
}

/* Runs the release script on the lock's servers in mask. Returns the number
 * of commands in cmds. */
static zend_always_inline uint32_t release_on(redislock_lock *l, uint32_t mask, const redislock_netopts *o,
                                              redislock_cmd *cmds, bool leaving)
{
    release_cmd r;

    release_cmd_init(&r, l, leaving);
    return redislock_round_call(l->settings.servers, mask, o, r.script, cmds, &r.c);
}

/* Runs the release script on every server of the lock, the round ending
 * once a quorum decided. A plain hold on one server is released by the
 * native compare-and-delete where its server has it (engine/native.h), the
 * waiters then woken as the script would, in a second write. Once one found
 * the lock waited for, the releases of this object until the marker ends
 * (each of which wakes someone) take the script again: one command instead
 * of six. Over a quorum the script stays, since a round that ends early
 * would leave the slower servers' wake-ups undone. */
static void release_all(redislock_lock *l, redislock_cmd *cmds)
{
    redislock_netopts o = redislock_lock_netopts(l);
    redislock_enough e;
    redislock_native_forms f;
    release_cmd r;

    if (!redislock_native_release_possible(l) || l->settings.fair || l->settings.servers->count > 1) {
        redislock_lock_decide_early(l, &o, &e, cmds, redislock_tally_vote_integer);
        release_on(l, redislock_lock_all_servers(l), &o, cmds, false);
        return;
    }
    /* One server: no round to end early. */
    redislock_native_release_init(&f, l);
    release_cmd_init(&r, l, false);
    redislock_round_call_natives(l->settings.servers, redislock_lock_all_servers(l), &o, r.script, cmds, &r.c, f.nv,
                                 f.n);
    redislock_native_forms_free(&f);
    redislock_native_settle(cmds, l->settings.servers->count);
    redislock_native_release_wake(l, cmds, l->settings.servers->count);
}

/* Keeps our token on the servers in mask as leftovers, to be removed later
 * (see engine/leftovers.h): one release command, encoded once, for each. */
void redislock_lock_keep_leftovers(redislock_lock *l, uint32_t mask, redislock_leftover_group *group)
{
    release_cmd r;
    redislock_netopts o = redislock_lock_netopts(l);
    smart_str buf = { 0 };

    if (!mask) {
        return;
    }
    if (l->shared) {
        redislock_shared_keep_leftovers(l, mask, group);
        return;
    }
    release_cmd_init(&r, l, true);
    r.c.argv[0] = "EVAL";
    r.c.lens[0] = 4;
    r.c.argv[1] = r.script->body;
    r.c.lens[1] = r.script->len;
    redislock_resp_encode(&buf, r.c.argc, r.c.argv, r.c.lens);
    for (uint32_t i = 0; i < l->settings.servers->count; i++) {
        if (mask & ((uint32_t) 1 << i)) {
            redislock_leftovers_add(l->settings.servers, i, ZSTR_VAL(buf.s), ZSTR_LEN(buf.s), &o, group);
        }
    }
    smart_str_free(&buf);
}

/* The release a leftover gets (EVAL of the release script, so that it
 * needs no script loaded), described into r from the lock alone (see
 * redislock_lock_term_describe()): plain mode. */
static bool term_release(redislock_term_release *r, const redislock_lock *l)
{
    const zend_string *key = l->keys.k[REDISLOCK_KEY_LOCK];
    redislock_term_arg *a = r->argv;

    r->body = redislock_script_release.body;
    r->body_len = redislock_script_release.len;
    a[0] = (redislock_term_arg) { "3", NULL, 1, 0 };
    a[1] = (redislock_term_arg) { ZSTR_VAL(key), NULL, (uint32_t) ZSTR_LEN(key), 0 };
    for (int i = 0; i < 2; i++) {
        redislock_key_kind kind = i ? REDISLOCK_KEY_WAKE : REDISLOCK_KEY_WAIT;
        const zend_string *name = l->keys.k[kind];
        if (l->keys.tagged && !name) {
            return false;
        }
        /* Untagged, the name is the lock key then the suffix, built or not. */
        a[2 + i] = l->keys.tagged ? (redislock_term_arg) { ZSTR_VAL(name), NULL, (uint32_t) ZSTR_LEN(name), 0 }
                                  : (redislock_term_arg) { ZSTR_VAL(key), redislock_keys_suffixes[kind].s,
                                                           (uint32_t) ZSTR_LEN(key),
                                                           (uint32_t) redislock_keys_suffixes[kind].len };
    }
    a[4] = (redislock_term_arg) { l->token, NULL, REDISLOCK_TOKEN_LEN, 0 };
    r->argc = 5;
    return true;
}

/* The same in fair mode (release_fair.lua, leaving): the lock passes to the
 * next waiter, and our place in the queue, if any, goes. */
static bool term_release_fair(redislock_term_release *r, const redislock_lock *l)
{
    r->body = redislock_script_release_fair.body;
    r->body_len = redislock_script_release_fair.len;
    redislock_term_long(r, REDISLOCK_FAIR_KEYS);
    for (int i = 0; i < REDISLOCK_FAIR_KEYS; i++) {
        const zend_string *key = l->keys.k[redislock_lock_fair_keys[i]];
        if (!key) {
            return false;
        }
        redislock_term_add(r, ZSTR_VAL(key), ZSTR_LEN(key), NULL, 0);
    }
    redislock_term_add(r, l->token, REDISLOCK_TOKEN_LEN, NULL, 0);
    redislock_term_long(r, l->settings.ttl);
    redislock_term_add(r, l->settings.fencing ? "1" : "0", 1, NULL, 0);
    redislock_term_add(r, "1", 1, NULL, 0);
    redislock_term_long(r, REDISLOCK_HANDOVER_MS);
    redislock_term_long(r, l->fair_slot);
    return true;
}

bool redislock_lock_term_describe(redislock_term_release *r, const void *lock)
{
    const redislock_lock *l = lock;

    if (l->shared) {
        return redislock_shared_term_describe(r, l);
    }
    return l->settings.fair ? term_release_fair(r, l) : term_release(r, l);
}

void redislock_lock_term_keys(redislock_lock *l)
{
    if (l->shared) {
        redislock_shared_term_keys(l);
    } else if (l->settings.fair) {
        for (int i = 0; i < REDISLOCK_FAIR_KEYS; i++) {
            redislock_lock_key(l, redislock_lock_fair_keys[i]);
        }
    } else {
        REDISLOCK_LKEY(l, WAIT);
        REDISLOCK_LKEY(l, WAKE);
    }
}

/* Removes our token from the servers in mask, where it may sit after a
 * failed attempt or a lost hold, within the operation's deadline (monotonic
 * us). A server that does not answer keeps it as a leftover, removed later. */
void redislock_lock_cleanup(redislock_lock *l, uint32_t mask, uint64_t deadline)
{
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_netopts o = redislock_lock_netopts(l);
    uint32_t n, unanswered = 0;

    if (l->shared) {
        /* A share: one server (shares need one server, Sentinel or Cluster). */
        redislock_shared_cleanup(l);
        return;
    }
    o.deadline = deadline;
    n = mask ? release_on(l, mask, &o, cmds, true) : 0;
    for (uint32_t i = 0; i < n; i++) {
        if (cmds[i].status != REDISLOCK_CMD_OK || cmds[i].reply->type != REDIS_REPLY_INTEGER) {
            unanswered |= (uint32_t) 1 << cmds[i].idx;
        }
    }
    redislock_cmd_dtor(cmds, n);
    redislock_lock_keep_leftovers(l, unanswered, NULL);
    redislock_lock_term_disarm(l);
    l->has_token = false;
    l->held = false;
}

static const redislock_key_kind lock_key = REDISLOCK_KEY_LOCK;

/* The quorum's verdict on a round, into *verdict; the commands are done
 * with. REDISLOCK_ERR (the reason in l->err) when it is unknown. */
static int decide(redislock_lock *l, redislock_cmd *cmds, const redislock_tally *t, const char *what,
                  redislock_verdict *verdict)
{
    *verdict = redislock_tally_verdict(t, redislock_lock_quorum(l));
    if (*verdict == REDISLOCK_VERDICT_UNKNOWN) {
        redislock_lock_describe_failure(l, cmds, t, what);
    }
    redislock_cmd_dtor(cmds, l->settings.servers->count);
    return *verdict == REDISLOCK_VERDICT_UNKNOWN ? REDISLOCK_ERR : REDISLOCK_OK;
}

/* Deletes our token on every server. */
int redislock_lock_release_once(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_verdict verdict;

    if (l->shared) {
        return redislock_shared_release_once(l, result);
    }
    *result = false;
    if (!redislock_lock_owned(l)) {
        return REDISLOCK_OK;
    }
    release_all(l, cmds);
    for (uint32_t i = 0; i < n; i++) {
        if (cmds[i].native) {
            redislock_tally_vote(&t, &cmds[i], redislock_native_vote_release(&cmds[i]));
        } else {
            redislock_tally_integer(&t, &cmds[i]);
        }
    }
    if (decide(l, cmds, &t, "release", &verdict) != REDISLOCK_OK) {
        /* Not known to be released: the hold stays, so that release() can
         * be called again, and the end of the request tries again. */
        return REDISLOCK_ERR;
    }
    /* Decided; a server that did not answer may still have our token. */
    redislock_lock_keep_leftovers(l, l->placed & ~t.definite, NULL);
    redislock_lock_term_disarm(l);
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

/* The extend's round: SET IFEQ where the server has it (the same
 * compare-and-renew), else the script. */
static void extend_all(redislock_lock *l, zend_long ttl, redislock_cmd *cmds, redislock_call *c)
{
    redislock_native_forms f;
    redislock_netopts o;
    redislock_enough e;

    if (!redislock_native_extend_possible(l)) {
        redislock_lock_call_all(l, &redislock_script_extend, cmds, c, redislock_tally_vote_integer);
        return;
    }
    o = redislock_lock_netopts(l);
    redislock_native_extend_init(&f, l, ttl);
    redislock_lock_decide_early(l, &o, &e, cmds, redislock_native_vote_extend);
    redislock_round_call_natives(l->settings.servers, redislock_lock_all_servers(l), &o, &redislock_script_extend, cmds,
                                 c, f.nv, f.n);
    redislock_native_forms_free(&f);
}

/* Renews the lease to ttl ms; what names the operation in an error message. */
int redislock_lock_extend_once(redislock_lock *l, zend_long ttl, bool *result, const char *what)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_verdict verdict;
    redislock_call c;
    uint64_t start, valid_until;

    if (l->shared) {
        return redislock_shared_extend_once(l, ttl, result, what);
    }
    *result = false;
    if (!redislock_lock_holding(l)) {
        return REDISLOCK_OK;
    }
    redislock_lock_call_init(&c, l, &lock_key, 1, false);
    redislock_call_arg(&c, l->token, REDISLOCK_TOKEN_LEN);
    redislock_call_long(&c, ttl);
    start = redislock_now_us();
    extend_all(l, ttl, cmds, &c);
    for (uint32_t i = 0; i < n; i++) {
        if (cmds[i].native) {
            redislock_tally_vote(&t, &cmds[i], redislock_native_vote_extend(&cmds[i]));
        } else {
            redislock_tally_integer(&t, &cmds[i]);
        }
    }
    valid_until = redislock_lock_validity_end(start, ttl);
    if (decide(l, cmds, &t, what, &verdict) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (verdict == REDISLOCK_VERDICT_YES && redislock_now_us() < valid_until) {
        /* The connections may have changed since the grant (reconnected). */
        redislock_lock_term_arm(l, cmds, n);
        l->valid_until = valid_until;
        REDISLOCK_G(stats).extended++;
        *result = true;
        return REDISLOCK_OK;
    }
    /* Lost: what may be left of our token (on servers that did not say it
     * was gone) goes too. */
    REDISLOCK_G(stats).extend_failed++;
    redislock_lock_term_disarm(l);
    l->held = false;
    if (redislock_lock_all_servers(l) & ~(t.definite & ~t.mayhold)) {
        redislock_lock_cleanup(l, redislock_lock_all_servers(l) & ~(t.definite & ~t.mayhold),
                               redislock_lock_op_deadline(l));
    }
    return REDISLOCK_OK;
}

/* Counts check.lua's answer: the pttl of our key (yes), or -2 (no). The
 * shortest pttl among the yes answers goes to *pttl. */
static int vote_check(const redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_INTEGER && cmd->reply->integer >= -2) {
        return cmd->reply->integer != -2;
    }
    return -1;
}

/* Counts check.lua's answer; the shortest pttl goes to *pttl. */
static void tally_check(redislock_tally *t, redislock_cmd *cmd, zend_long ttl, zend_long *pttl)
{
    int vote = vote_check(cmd);

    if (vote == 1) {
        /* No expiry at all (-1) proves no more than our own ttl. */
        *pttl = MIN(*pttl, cmd->reply->integer < 0 ? ttl : (zend_long) cmd->reply->integer);
    }
    redislock_tally_vote(t, cmd, vote);
}

/* Asks every server for our token's pttl; dates the validity from it. */
int redislock_lock_check_once(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_verdict verdict;
    zend_long pttl = ZEND_LONG_MAX;
    redislock_call c;
    uint64_t start;

    if (l->shared) {
        return redislock_shared_check_once(l, result);
    }
    *result = false;
    if (!redislock_lock_holding(l)) {
        return REDISLOCK_OK;
    }
    redislock_lock_call_init(&c, l, &lock_key, 1, false);
    redislock_call_arg(&c, l->token, REDISLOCK_TOKEN_LEN);
    start = redislock_now_us();
    redislock_lock_call_all(l, &redislock_script_check, cmds, &c, vote_check);
    for (uint32_t i = 0; i < n; i++) {
        tally_check(&t, &cmds[i], l->settings.ttl, &pttl);
    }
    if (decide(l, cmds, &t, "isAcquired", &verdict) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    *result = verdict == REDISLOCK_VERDICT_YES;
    if (!*result) {
        redislock_lock_term_disarm(l);
        l->held = false;
        return REDISLOCK_OK;
    }
    /* Dated from the send: the lease ends no sooner than that, by our clock. */
    l->valid_until = redislock_lock_validity_end(start, pttl);
    return REDISLOCK_OK;
}

/* The release script without a token, on every server. */
int redislock_lock_force_release_once(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, l->settings.fair ? REDISLOCK_KEY_QUEUE : REDISLOCK_KEY_WAIT,
                                  REDISLOCK_KEY_WAKE, REDISLOCK_KEY_RWAIT, REDISLOCK_KEY_RWAKE,
                                  REDISLOCK_KEY_READERS };
    redislock_call c;

    /* Shared holds end too, and the readers waiting are woken. */
    redislock_lock_call_init(&c, l, keys, 6, false);
    /* The release script, forced: no token to match. */
    redislock_call_arg(&c, "", 0);
    redislock_call_bool(&c, true);
    *result = false;
    redislock_lock_call_all(l, &redislock_script_release, cmds, &c, NULL);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    if (t.yes + t.no < redislock_lock_quorum(l)) {
        /* Too few answers to say the lock is gone. */
        redislock_lock_describe_failure(l, cmds, &t, "forceRelease");
        redislock_cmd_dtor(cmds, n);
        return REDISLOCK_ERR;
    }
    redislock_cmd_dtor(cmds, n);
    *result = t.yes > 0;
    return REDISLOCK_OK;
}

/* Builds the lock's keys (see engine/keys.h). */
void redislock_lock_init(redislock_lock *l, const zend_string *prefix, const zend_string *name)
{
    redislock_keys_init(&l->keys, prefix, name, redislock_cluster_any(l->settings.servers));
}

/* Frees the lock's keys. */
void redislock_lock_dtor(redislock_lock *l)
{
    /* The armed release is made of the keys and the token. */
    redislock_lock_term_disarm(l);
    redislock_keys_free(&l->keys);
}

/* Validity left, in ms, by the local monotonic clock. */
zend_long redislock_lock_remaining(const redislock_lock *l)
{
    return redislock_lock_holding(l) ? (zend_long) redislock_ms_until(l->valid_until) : 0;
}
