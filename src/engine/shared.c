/*
 * Shared (read) holds (see engine/shared.h and lua/read_*.lua).
 *
 * A reader's attempt is one script call; the first one, on a lock this
 * process last found free, a plain SET NX PX (read_free()), the script
 * after it only when that finds the lock taken. Refused, a reader that waits
 * blocks on the readers' wake-up list with the next attempt pipelined
 * behind the BLPOP (one round trip per try), for no longer than what
 * refused it lasts (the writer's lease, or its waiting mark) and a second
 * at most. A promote waits the same way on the writers' wake-up list,
 * which the release of the last other share pushes to.
 */
#include "php_redislock.h"
#include "zend_smart_str.h"
#include "engine/shared.h"
#include "engine/seen.h"
#include "engine/lock.h"
#include "engine/acquire.h"
#include "engine/attempt.h"
#include "engine/hold.h"
#include "engine/sync.h"
#include "engine/wait.h"
#include "engine/scripts.h"
#include "client/route_pin.h"
#include "base/clock.h"
#include "base/resp.h"

#include <unistd.h>

#define SHARED_GONE (-3) /* an answer: our share is gone (promote) */
#define SHARED_RELOAD (-2) /* the server lost the script: call it the way that loads it */

/* Runs script with call c on the lock's server into *cmd, NOSCRIPT
 * recovered. REDISLOCK_ERR when no reply of that type came (the reason in
 * l->err; *cmd is done with). */
static int run(redislock_lock *l, const redislock_script *script, redislock_call *c, redislock_cmd *cmd, int type,
               const char *what)
{
    redislock_tally t = { 0 };

    redislock_lock_call_all(l, script, cmd, c, NULL);
    if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == type) {
        return REDISLOCK_OK;
    }
    redislock_tally_failure(&t, cmd);
    redislock_lock_describe_failure(l, cmd, &t, what);
    redislock_cmd_dtor(cmd, 1);
    return REDISLOCK_ERR;
}

/* A {n, m} answer r: n into *said, m into *n. false when r is none. */
static bool pair(const redisReply *r, int *said, zend_long *n)
{
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[0]->type != REDIS_REPLY_INTEGER
        || r->element[1]->type != REDIS_REPLY_INTEGER) {
        return false;
    }
    *said = (int) r->element[0]->integer;
    *n = (zend_long) r->element[1]->integer;
    return true;
}

/* {{{ The release of a share: read_release.lua's call */

static const redislock_key_kind release_keys[] = { REDISLOCK_KEY_LOCK, REDISLOCK_KEY_READERS, REDISLOCK_KEY_WAIT,
                                                    REDISLOCK_KEY_WAKE, REDISLOCK_KEY_RWAIT, REDISLOCK_KEY_RWAKE };

static void release_call_init(redislock_call *c, const redislock_lock *l)
{
    redislock_lock_call_init(c, l, release_keys, 6, false);
    redislock_call_arg(c, l->token, REDISLOCK_TOKEN_LEN);
}

/* Arms the release of our share for SIGTERM (redislock_lock_term_arm():
 * redislock_shared_term_describe() describes it). */
static void term_arm(redislock_lock *l, const redislock_cmd *cmd)
{
    if (!redislock_lock_owned(l)) {
        redislock_lock_term_disarm(l);
        return;
    }
    redislock_lock_term_arm(l, cmd, 1);
}

bool redislock_shared_term_describe(redislock_term_release *r, const redislock_lock *l)
{
    r->body = redislock_script_read_release.body;
    r->body_len = redislock_script_read_release.len;
    redislock_term_long(r, (zend_long) (sizeof(release_keys) / sizeof(release_keys[0])));
    for (size_t i = 0; i < sizeof(release_keys) / sizeof(release_keys[0]); i++) {
        const zend_string *key = l->keys.k[release_keys[i]];
        if (!key) {
            return false;
        }
        redislock_term_add(r, ZSTR_VAL(key), ZSTR_LEN(key), NULL, 0);
    }
    redislock_term_add(r, l->token, REDISLOCK_TOKEN_LEN, NULL, 0);
    return true;
}

void redislock_shared_term_keys(redislock_lock *l)
{
    for (size_t i = 0; i < sizeof(release_keys) / sizeof(release_keys[0]); i++) {
        redislock_lock_key(l, release_keys[i]);
    }
}

void redislock_shared_keep_leftovers(redislock_lock *l, uint32_t mask, redislock_leftover_group *group)
{
    redislock_netopts o = redislock_lock_netopts(l);
    smart_str buf = { 0 };
    redislock_call c;

    if (!(mask & 1)) {
        return;
    }
    release_call_init(&c, l);
    c.argv[0] = "EVAL";
    c.lens[0] = 4;
    c.argv[1] = redislock_script_read_release.body;
    c.lens[1] = redislock_script_read_release.len;
    redislock_resp_encode(&buf, c.argc, c.argv, c.lens);
    redislock_leftovers_add(l->settings.servers, 0, ZSTR_VAL(buf.s), ZSTR_LEN(buf.s), &o, group);
    smart_str_free(&buf);
}

/* The share ended (released, found gone, or given up): nothing held. */
static void share_over(redislock_lock *l)
{
    redislock_lock_term_disarm(l);
    l->has_token = false;
    l->held = false;
    l->shared = false;
}

/* }}} */

/* {{{ Taking a share */

/* read_acquire.lua's call: wait > 0 marks readers as waiting that long
 * (and the lock's waiters marker, passed only then). */
static void read_call_init(redislock_call *c, const redislock_lock *l, zend_long wait)
{
    static const redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, REDISLOCK_KEY_READERS, REDISLOCK_KEY_RWAIT,
                                                REDISLOCK_KEY_RWAKE, REDISLOCK_KEY_WAIT };

    redislock_lock_call_init(c, l, keys, wait > 0 ? 5 : 4, false);
    redislock_call_arg(c, l->token, REDISLOCK_TOKEN_LEN);
    redislock_call_long(c, l->settings.ttl);
    redislock_call_long(c, wait);
}

/* Records the share granted by the command cmd sent at sent_at. */
static void share_granted(redislock_lock *l, uint64_t sent_at, const redislock_cmd *cmd)
{
    if (!l->shared) {
        /* A demote: the release armed for the exclusive hold is no more. */
        redislock_lock_term_disarm(l);
    }
    l->held = true;
    l->shared = true;
    l->fence = 0;
    l->valid_until = redislock_lock_validity_end(sent_at, l->settings.ttl);
    term_arm(l, cmd);
}

/* One attempt, the script called the way that loads it: 1 granted, 0
 * refused (*block: ms that refusal lasts at most), REDISLOCK_ERR unknown. */
static int read_try(redislock_lock *l, uint64_t deadline, zend_long *block)
{
    redislock_cmd cmd;
    redislock_call c;
    uint64_t sent_at;
    int said = -1;

    read_call_init(&c, l, redislock_ms_until(deadline));
    sent_at = redislock_now_us();
    if (run(l, &redislock_script_read_acquire, &c, &cmd, REDIS_REPLY_ARRAY, "acquireRead") != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (!pair(cmd.reply, &said, block)) {
        redislock_error_set(&l->err, REDISLOCK_E_SERVER, "acquireRead failed: unexpected reply");
        said = REDISLOCK_ERR;
    } else if (said == 1) {
        redislock_seen(REDISLOCK_LKEY(l, LOCK), *block != 1);
        share_granted(l, sent_at, &cmd);
    }
    redislock_cmd_dtor(&cmd, 1);
    return said;
}

/* A share of a free lock the plain way: SET key '*'<token> NX PX ttl, all
 * read_acquire.lua does there for a caller that does not wait (for one that
 * waits, the one reader woken passes wake-ups on). 1 granted, 0 taken (the
 * script decides), REDISLOCK_ERR unknown. */
static int read_free(redislock_lock *l)
{
    char value[REDISLOCK_TOKEN_LEN + 1] = "*";
    redislock_tally t = { 0 };
    redislock_cmd cmd;
    redislock_call c;
    uint64_t sent_at = redislock_now_us();
    int said;

    memcpy(value + 1, l->token, REDISLOCK_TOKEN_LEN);
    redislock_attempt_set_nx(&c, l, value, sizeof(value));
    redislock_lock_send_all(l, &cmd, c.argc, c.argv, c.lens, redislock_attempt_vote_set);
    said = redislock_attempt_vote_set(&cmd);
    if (said < 0) {
        redislock_tally_failure(&t, &cmd);
        redislock_lock_describe_failure(l, &cmd, &t, "acquireRead");
        said = REDISLOCK_ERR;
    } else if (said == 1) {
        share_granted(l, sent_at, &cmd);
    }
    redislock_cmd_dtor(&cmd, 1);
    return said;
}

/* The first attempt: the plain one on a lock this process last found free,
 * the script otherwise and after a plain one that found it taken. The
 * script's grant says which the next one is (engine/seen.c). */
static int read_first(redislock_lock *l, uint64_t deadline, zend_long *block, bool renewal)
{
    int said = renewal || redislock_seen_taken(REDISLOCK_LKEY(l, LOCK)) ? 0 : read_free(l);

    if (said != 0) {
        return said;
    }
    redislock_seen(REDISLOCK_LKEY(l, LOCK), true);
    return read_try(l, deadline, block);
}

/* Blocks on the wake-up list list for at most block_us, with the script
 * call c behind (EVALSHA). Returns the script's {n, m} answer (n into
 * *said), SHARED_RELOAD when the server lost the script or refused BLPOP,
 * REDISLOCK_ERR with l->err set when no answer came. *sent_at: when the
 * write went; *cmd keeps the replies (done with unless an answer came). */
static int blocked_try(redislock_lock *l, const zend_string *list, uint64_t block_us, redislock_call *c,
                       redislock_cmd *cmd, int *said, zend_long *n, uint64_t *sent_at, const char *what)
{
    const redisReply *popped = redislock_wait_blpop(l, cmd, list, block_us,
                                                    &(redislock_words) { c->argc, c->argv, c->lens }, sent_at);
    redislock_tally t = { 0 };

    if (popped && popped->type != REDIS_REPLY_ERROR && pair(cmd->reply, said, n)) {
        return REDISLOCK_OK;
    }
    if ((popped && popped->type == REDIS_REPLY_ERROR) || (popped && redislock_round_noscript(cmd))) {
        redislock_cmd_dtor(cmd, 1);
        if (popped->type == REDIS_REPLY_ERROR) {
            /* BLPOP refused (an ACL without it): a short sleep instead. */
            usleep((useconds_t) MIN(block_us, REDISLOCK_BACKOFF_MAX_US));
        }
        return SHARED_RELOAD;
    }
    redislock_tally_failure(&t, cmd);
    redislock_lock_describe_failure(l, cmd, &t, what);
    redislock_cmd_dtor(cmd, 1);
    return REDISLOCK_ERR;
}

/* How long the next block may last: the rest of the wait, no longer than
 * what refused us lasts, nor REDISLOCK_WAIT_RECHECK_US. */
static uint64_t block_for(uint64_t deadline, zend_long block_ms)
{
    uint64_t left = (uint64_t) redislock_ms_until(deadline) * 1000;

    return MIN(MIN(left, (uint64_t) MAX(block_ms, 1) * 1000), REDISLOCK_WAIT_RECHECK_US);
}

/* A blocked attempt (see blocked_try()) of read_acquire.lua on the readers'
 * wake-up list: 1 granted, 0 refused, SHARED_RELOAD, REDISLOCK_ERR. */
static int read_blocked(redislock_lock *l, uint64_t deadline, zend_long *block)
{
    redislock_cmd cmd;
    redislock_call c;
    uint64_t sent_at, block_us = block_for(deadline, *block);
    int said = 0, rc;

    if (block_us < REDISLOCK_BLOCK_MIN_US) {
        /* Too short for the server to time: sleep it, then try again. */
        usleep((useconds_t) block_us);
        return SHARED_RELOAD;
    }
    read_call_init(&c, l, redislock_ms_until(deadline));
    redislock_call_evalsha(&c, &redislock_script_read_acquire);
    rc = blocked_try(l, REDISLOCK_LKEY(l, RWAKE), block_us, &c, &cmd, &said, block, &sent_at, "acquireRead");
    if (rc != REDISLOCK_OK) {
        return rc;
    }
    if (said == 1) {
        redislock_seen(REDISLOCK_LKEY(l, LOCK), *block != 1);
        share_granted(l, sent_at, &cmd);
    }
    redislock_cmd_dtor(&cmd, 1);
    return said;
}

/* Takes a share (see redislock_shared_acquire()), replicas aside. */
static int read_now(redislock_lock *l, zend_long wait_ms, bool *result, void *ctx)
{
    uint64_t deadline = redislock_now_us() + (uint64_t) wait_ms * 1000;
    bool was_holding = redislock_lock_holding(l), tried = false;
    zend_long block = 0;
    int said;

    if (!was_holding) {
        if (redislock_lock_owned(l)) {
            redislock_lock_cleanup(l, redislock_lock_all_servers(l), redislock_lock_op_deadline(l));
        }
        if (redislock_lock_new_token(l) != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        l->has_token = true;
        l->pid = redislock_process_pid();
    }
    for (;;) {
        said = tried ? read_blocked(l, deadline, &block) : read_first(l, deadline, &block, was_holding);
        tried = said != SHARED_RELOAD;
        if (said == REDISLOCK_ERR) {
            if (!was_holding) {
                /* Our token may sit in the set: removed later. */
                redislock_shared_keep_leftovers(l, 1, NULL);
                share_over(l);
            }
            return REDISLOCK_ERR;
        }
        if (said == 1) {
            break;
        }
        if (said == 0 && (wait_ms == 0 || redislock_now_us() >= deadline)) {
            if (was_holding && l->shared) {
                /* A renewal refused: our share was gone. */
                share_over(l);
            } else if (!was_holding) {
                l->has_token = false;
            }
            return REDISLOCK_OK;
        }
    }
    if (redislock_now_us() >= l->valid_until) {
        /* Granted too late to be of use. */
        redislock_shared_release_once(l, result);
        *result = false;
        return REDISLOCK_OK;
    }
    *result = true;
    return REDISLOCK_OK;
}

int redislock_shared_acquire(redislock_lock *l, zend_long wait_ms, bool *result)
{
    redislock_hold_keepalive_sync(l);
    return redislock_hold_grant(l, read_now, NULL, "acquireRead", wait_ms, result);
}

/* }}} */

/* {{{ Promote */

/* read_promote.lua's call: wait > 0 marks a writer as waiting, -1 gives up. */
static void promote_call_init(redislock_call *c, const redislock_lock *l, zend_long wait)
{
    static const redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, REDISLOCK_KEY_READERS, REDISLOCK_KEY_FENCE,
                                                REDISLOCK_KEY_WAIT, REDISLOCK_KEY_RWAIT, REDISLOCK_KEY_RWAKE };

    redislock_lock_call_init(c, l, keys, 6, false);
    redislock_call_arg(c, l->token, REDISLOCK_TOKEN_LEN);
    redislock_call_long(c, l->settings.ttl);
    redislock_call_bool(c, l->settings.fencing);
    redislock_call_long(c, wait);
}

/* One promote attempt, plain (loads the script) or blocked on the writers'
 * wake-up list: 1 promoted, 0 not yet (*block), SHARED_GONE, SHARED_RELOAD,
 * REDISLOCK_ERR. */
static int promote_try(redislock_lock *l, uint64_t deadline, bool waiting, bool blocked, zend_long *block)
{
    redislock_cmd cmd;
    redislock_call c;
    uint64_t sent_at, block_us = block_for(deadline, *block);
    int said = 0, rc;

    promote_call_init(&c, l, waiting ? MAX(redislock_ms_until(deadline), 1) : 0);
    if (blocked) {
        if (block_us < REDISLOCK_BLOCK_MIN_US) {
            usleep((useconds_t) block_us);
            return SHARED_RELOAD;
        }
        redislock_call_evalsha(&c, &redislock_script_read_promote);
        rc = blocked_try(l, REDISLOCK_LKEY(l, WAKE), block_us, &c, &cmd, &said, block, &sent_at, "acquire");
        if (rc != REDISLOCK_OK) {
            return rc;
        }
    } else {
        sent_at = redislock_now_us();
        if (run(l, &redislock_script_read_promote, &c, &cmd, REDIS_REPLY_ARRAY, "acquire") != REDISLOCK_OK) {
            return REDISLOCK_ERR;
        }
        if (!pair(cmd.reply, &said, block)) {
            redislock_error_set(&l->err, REDISLOCK_E_SERVER, "acquire failed: unexpected reply");
            redislock_cmd_dtor(&cmd, 1);
            return REDISLOCK_ERR;
        }
    }
    if (said == -1) {
        said = SHARED_GONE;
    }
    if (said == 1) {
        redislock_lock_term_disarm(l);
        l->shared = false;
        l->fence = *block;
        l->valid_until = redislock_lock_validity_end(sent_at, l->settings.ttl);
        redislock_lock_term_arm(l, &cmd, 1);
    }
    redislock_cmd_dtor(&cmd, 1);
    return said;
}

/* The promote ran out of time: the writer's mark goes (waiting readers
 * are woken). Best effort: the mark lapses within 2 s anyway. */
static void promote_give_up(redislock_lock *l)
{
    redislock_cmd cmd;
    redislock_call c;

    promote_call_init(&c, l, -1);
    if (run(l, &redislock_script_read_promote, &c, &cmd, REDIS_REPLY_ARRAY, "acquire") == REDISLOCK_OK) {
        redislock_cmd_dtor(&cmd, 1);
    }
}

/* Promotes (see redislock_shared_promote()), replicas aside. ctx, a bool:
 * set when our share was found gone (nothing changed). */
static int promote_now(redislock_lock *l, zend_long wait_ms, bool *result, void *ctx)
{
    bool *gone = ctx;
    uint64_t deadline = redislock_now_us() + (uint64_t) wait_ms * 1000;
    bool tried = false;
    zend_long block = 0;
    int said;

    for (;;) {
        said = promote_try(l, deadline, wait_ms > 0, tried, &block);
        tried = said != SHARED_RELOAD;
        if (said == REDISLOCK_ERR) {
            return REDISLOCK_ERR;
        }
        if (said == SHARED_GONE) {
            share_over(l);
            *gone = true;
            return REDISLOCK_OK;
        }
        if (said == 1) {
            *result = redislock_now_us() < l->valid_until;
            if (!*result) {
                redislock_lock_release_once(l, result);
                *result = false;
            }
            return REDISLOCK_OK;
        }
        if (said == 0 && (wait_ms == 0 || redislock_now_us() >= deadline)) {
            if (wait_ms > 0) {
                promote_give_up(l);
            }
            return REDISLOCK_OK;
        }
    }
}

int redislock_shared_promote(redislock_lock *l, zend_long wait_ms, bool *result)
{
    uint64_t start = redislock_now_us();
    bool gone = false;
    int rc;

    rc = redislock_hold_grant(l, promote_now, &gone, "acquire", wait_ms, result);
    if (rc == REDISLOCK_OK && gone) {
        /* Nothing to promote: an acquire, for the rest of the wait. */
        uint64_t spent = (redislock_now_us() - start) / 1000;
        return redislock_acquire_lock(l, wait_ms > (zend_long) spent ? wait_ms - (zend_long) spent : 0, result);
    }
    return rc;
}

/* }}} */

/* {{{ release, extend, check on a share */

void redislock_shared_cleanup(redislock_lock *l)
{
    redislock_cmd cmd;
    redislock_call c;

    if (redislock_lock_owned(l)) {
        release_call_init(&c, l);
        if (run(l, &redislock_script_read_release, &c, &cmd, REDIS_REPLY_INTEGER, "release") == REDISLOCK_OK) {
            redislock_cmd_dtor(&cmd, 1);
        } else {
            /* Not known to be gone: removed later, as a leftover. */
            redislock_shared_keep_leftovers(l, 1, NULL);
        }
    }
    share_over(l);
}

int redislock_shared_release_once(redislock_lock *l, bool *result)
{
    redislock_cmd cmd;
    redislock_call c;

    *result = false;
    if (!redislock_lock_owned(l)) {
        return REDISLOCK_OK;
    }
    release_call_init(&c, l);
    if (run(l, &redislock_script_read_release, &c, &cmd, REDIS_REPLY_INTEGER, "release") != REDISLOCK_OK) {
        /* Not known to be released: the hold stays. */
        return REDISLOCK_ERR;
    }
    *result = cmd.reply->integer == 1;
    redislock_cmd_dtor(&cmd, 1);
    share_over(l);
    if (*result) {
        REDISLOCK_G(stats).released++;
    } else {
        REDISLOCK_G(stats).released_lost++;
    }
    return REDISLOCK_OK;
}

/* read_extend.lua: renew to ttl ms, or (ttl 0) ask how long is left. */
static int extend_call(redislock_lock *l, zend_long ttl, zend_long *answer, uint64_t *sent_at, const char *what)
{
    static const redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, REDISLOCK_KEY_READERS };
    redislock_cmd cmd;
    redislock_call c;

    redislock_lock_call_init(&c, l, keys, 2, false);
    redislock_call_arg(&c, l->token, REDISLOCK_TOKEN_LEN);
    redislock_call_long(&c, MAX(ttl, 1));
    redislock_call_bool(&c, ttl == 0);
    *sent_at = redislock_now_us();
    if (run(l, &redislock_script_read_extend, &c, &cmd, REDIS_REPLY_INTEGER, what) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    *answer = (zend_long) cmd.reply->integer;
    if (*answer >= 0 && ttl > 0) {
        term_arm(l, &cmd);
    }
    redislock_cmd_dtor(&cmd, 1);
    return REDISLOCK_OK;
}

int redislock_shared_extend_once(redislock_lock *l, zend_long ttl, bool *result, const char *what)
{
    zend_long answer;
    uint64_t sent_at;

    *result = false;
    if (!redislock_lock_holding(l)) {
        return REDISLOCK_OK;
    }
    if (extend_call(l, ttl, &answer, &sent_at, what) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (answer == 1 && redislock_now_us() < redislock_lock_validity_end(sent_at, ttl)) {
        l->valid_until = redislock_lock_validity_end(sent_at, ttl);
        REDISLOCK_G(stats).extended++;
        *result = true;
        return REDISLOCK_OK;
    }
    REDISLOCK_G(stats).extend_failed++;
    share_over(l);
    return REDISLOCK_OK;
}

int redislock_shared_check_once(redislock_lock *l, bool *result)
{
    zend_long answer;
    uint64_t sent_at;

    *result = false;
    if (!redislock_lock_holding(l)) {
        return REDISLOCK_OK;
    }
    if (extend_call(l, 0, &answer, &sent_at, "isAcquired") != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (answer < 0) {
        share_over(l);
        return REDISLOCK_OK;
    }
    l->valid_until = redislock_lock_validity_end(sent_at, answer);
    *result = true;
    return REDISLOCK_OK;
}

/* }}} */
