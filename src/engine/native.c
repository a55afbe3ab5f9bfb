/*
 * Native commands in place of the release and extend scripts (see
 * engine/native.h).
 */
#include "php_redislock.h"
#include "engine/native.h"
#include "engine/round.h"
#include "engine/tally.h"
#include "base/clock.h"
#include "base/resp.h"

#define NAME_MAX_LEN 160

/* Appends one command (argc words) to f's form k. */
static void form_add(redislock_native_forms *f, int k, int argc, const char **argv, const size_t *lens)
{
    redislock_resp_encode(&f->buf[k], argc, argv, lens);
    f->nv[k].count++;
}

/* Starts form k of f, for servers having needs. */
static void form_start(redislock_native_forms *f, uint32_t needs)
{
    memset(&f->buf[f->n], 0, sizeof(f->buf[0]));
    f->nv[f->n].needs = needs;
    f->nv[f->n].count = 0;
    f->n++;
}

/* Points each form at its encoded commands. */
static void forms_done(redislock_native_forms *f)
{
    for (int k = 0; k < f->n; k++) {
        f->nv[k].buf = ZSTR_VAL(f->buf[k].s);
        f->nv[k].len = ZSTR_LEN(f->buf[k].s);
    }
}

void redislock_native_release_init(redislock_native_forms *f, redislock_lock *l)
{
    const zend_string *key = REDISLOCK_LKEY(l, LOCK);
    char name[NAME_MAX_LEN];
    size_t len;
    const char *wait;
    uint32_t seen = REDISLOCK_G(natives_seen);

    f->n = 0;
    if (!l->settings.native_commands || !(seen & (REDISLOCK_NATIVE_DELIFEQ | REDISLOCK_NATIVE_DELEX))) {
        return; /* no server had them: the script, as ever */
    }
    if (redislock_now_us() < l->marked_until) {
        return; /* waited for: the script wakes someone in the same step */
    }
    wait = redislock_keys_name(&l->keys, REDISLOCK_KEY_WAIT, name, sizeof(name), &len);
    const char *pttl[2] = { "PTTL", wait };
    const size_t pttl_lens[2] = { 4, len };
    if (seen & REDISLOCK_NATIVE_DELIFEQ) {
        const char *argv[3] = { "DELIFEQ", ZSTR_VAL(key), l->token };
        const size_t lens[3] = { 7, ZSTR_LEN(key), REDISLOCK_TOKEN_LEN };
        form_start(f, REDISLOCK_NATIVE_DELIFEQ);
        form_add(f, f->n - 1, 3, argv, lens);
        form_add(f, f->n - 1, 2, pttl, pttl_lens);
    }
    if (seen & REDISLOCK_NATIVE_DELEX) {
        const char *argv[4] = { "DELEX", ZSTR_VAL(key), "IFEQ", l->token };
        const size_t lens[4] = { 5, ZSTR_LEN(key), 4, REDISLOCK_TOKEN_LEN };
        form_start(f, REDISLOCK_NATIVE_DELEX);
        form_add(f, f->n - 1, 4, argv, lens);
        form_add(f, f->n - 1, 2, pttl, pttl_lens);
    }
    forms_done(f);
}

void redislock_native_extend_init(redislock_native_forms *f, redislock_lock *l, zend_long ttl)
{
    const zend_string *key = REDISLOCK_LKEY(l, LOCK);
    char ms[24];

    f->n = 0;
    if (!l->settings.native_commands || !(REDISLOCK_G(natives_seen) & REDISLOCK_NATIVE_SETIFEQ)) {
        return;
    }
    const char *argv[7] = { "SET", ZSTR_VAL(key), l->token, "PX", ms, "IFEQ", l->token };
    const size_t lens[7] = { 3, ZSTR_LEN(key), REDISLOCK_TOKEN_LEN, 2,
                             (size_t) snprintf(ms, sizeof(ms), ZEND_LONG_FMT, ttl), 4, REDISLOCK_TOKEN_LEN };
    form_start(f, REDISLOCK_NATIVE_SETIFEQ);
    form_add(f, 0, 7, argv, lens);
    forms_done(f);
}

void redislock_native_forms_free(redislock_native_forms *f)
{
    for (int k = 0; k < f->n; k++) {
        smart_str_free(&f->buf[k]);
    }
    f->n = 0;
}

void redislock_native_settle(redislock_cmd *cmds, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const redisReply *r = cmds[i].native ? redislock_cmd_reply(&cmds[i], 0) : NULL;
        if (cmds[i].status == REDISLOCK_CMD_OK && r && r->type == REDIS_REPLY_ERROR) {
            redislock_cmd_refused(&cmds[i], r);
        }
    }
}

int redislock_native_vote_release(const redislock_cmd *cmd)
{
    const redisReply *r;

    if (!cmd->native) {
        return redislock_tally_vote_integer(cmd);
    }
    /* The compare-and-delete's answer, first of the pipeline; the PTTL
     * behind it must have come too (the wake-up depends on it). */
    r = redislock_cmd_reply(cmd, 0);
    if (cmd->status == REDISLOCK_CMD_OK && r && r->type == REDIS_REPLY_INTEGER) {
        return r->integer == 1;
    }
    return -1;
}

int redislock_native_vote_extend(const redislock_cmd *cmd)
{
    const redisReply *r = cmd->reply;

    if (!cmd->native) {
        return redislock_tally_vote_integer(cmd);
    }
    if (cmd->status == REDISLOCK_CMD_OK && r->type == REDIS_REPLY_STATUS && r->len == 2
        && memcmp(r->str, "OK", 2) == 0) {
        return 1;
    }
    return cmd->status == REDISLOCK_CMD_OK && r->type == REDIS_REPLY_NIL ? 0 : -1;
}

/* Leaves one wake-up on the list key for as long as ms (the marker's
 * pttl), as lua/release.lua does (RPUSH, and LPOP when one was there
 * already: LTRIM to the first), then, when ask is given, the pttl of that
 * marker. Returns it (0 when not asked or not known). */
static zend_long wake_list(redislock_lock *l, uint32_t idx, const zend_string *list, zend_long ms,
                           const zend_string *ask)
{
    redislock_netopts o = redislock_lock_netopts(l);
    redislock_cmd cmd;
    char exp[24];
    const char *push[3] = { "RPUSH", ZSTR_VAL(list), "1" }, *trim[4] = { "LTRIM", ZSTR_VAL(list), "0", "0" };
    const char *pexpire[3] = { "PEXPIRE", ZSTR_VAL(list), exp }, *pttl[2] = { "PTTL", ask ? ZSTR_VAL(ask) : "" };
    const size_t push_lens[3] = { 5, ZSTR_LEN(list), 1 }, trim_lens[4] = { 5, ZSTR_LEN(list), 1, 1 };
    const size_t pexpire_lens[3] = { 7, ZSTR_LEN(list), (size_t) snprintf(exp, sizeof(exp), ZEND_LONG_FMT, ms) };
    const size_t pttl_lens[2] = { 4, ask ? ZSTR_LEN(ask) : 0 };
    const redislock_words w[4] = { { 3, push, push_lens }, { 4, trim, trim_lens }, { 3, pexpire, pexpire_lens },
                                   { 2, pttl, pttl_lens } };
    zend_long more = 0;

    redislock_round_send_pipeline(l->settings.servers, (uint32_t) 1 << idx, &o, &cmd, w, ask ? 4 : 3);
    if (ask && cmd.status == REDISLOCK_CMD_OK && cmd.reply->type == REDIS_REPLY_INTEGER) {
        more = (zend_long) cmd.reply->integer;
    }
    redislock_cmd_dtor(&cmd, 1);
    return more;
}

/*
 * The release script deletes the key and, in the same step, pushes a
 * wake-up when the waiters marker is alive. Natively the delete comes
 * first (DELIFEQ at T1), the marker's PTTL right behind it (T2 > T1, other
 * clients' commands may run between), and the wake-up, only when that PTTL
 * was positive, in a write of its own (T3). No wake-up is lost, given how
 * waiters register and retry (engine/wait_wakeup.c, lua/acquire.lua):
 *
 * - A waiter marks the lock (the marker's expiry only moves later, to the
 *   end of its wait) in the same script that found the lock held, and its
 *   BLPOP follows. One that marked before T1 finds the marker alive at T2
 *   unless its wait had ended by then, when it no longer counts on a
 *   wake-up (it tries again: its block never outlasts the holder's lease
 *   or REDISLOCK_WAIT_RECHECK_US, nor the marker, which it renews). That is
 *   the script's own rule read at T2 instead of T1: what a release a round
 *   trip later would do.
 * - One whose attempt comes after T1 finds the lock free and takes it, or
 *   taken by another and marks it: then T2 or T3 may push a wake-up it did
 *   not need, and its next attempt is refused and marks again, one round
 *   trip more, as when a woken waiter loses the race (the holder's release
 *   wakes it).
 * - Between T1 and T3 the lock is free, the marker alive and no wake-up
 *   left: the state acquire.lua reads as "being handed to a woken waiter"
 *   and does not grant (for 2 ms at most), as it does between the script's
 *   release and the woken waiter's SET NX. The wake-up at T3 ends it.
 *
 * Readers held back by a writer (KEYS[4] and [5] of the script) are looked
 * for the same way, only while the writers' marker is alive.
 */
void redislock_native_release_wake(redislock_lock *l, const redislock_cmd *cmds, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const redisReply *pttl;
        zend_long readers;

        if (!cmds[i].native || redislock_native_vote_release(&cmds[i]) != 1) {
            continue; /* the script woke them, or nothing was deleted */
        }
        pttl = redislock_cmd_reply(&cmds[i], 1);
        if (!pttl || pttl->type != REDIS_REPLY_INTEGER || pttl->integer <= 0) {
            continue;
        }
        l->marked_until = redislock_now_us() + (uint64_t) pttl->integer * 1000;
        readers = wake_list(l, cmds[i].idx, REDISLOCK_LKEY(l, WAKE), (zend_long) pttl->integer,
                            REDISLOCK_LKEY(l, RWAIT));
        if (readers > 0) {
            wake_list(l, cmds[i].idx, REDISLOCK_LKEY(l, RWAKE), readers, NULL);
        }
    }
}
