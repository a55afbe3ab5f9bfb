/*
 * The counting semaphore (see semaphore.h): its calls of the scripts
 * lua/semaphore_*.lua, their answers, and the wait.
 *
 * A wait is one write per try after the first attempt: BLPOP on the
 * semaphore's wake-up list, with the next attempt (the acquire script)
 * pipelined behind it, which the server runs as soon as the BLPOP returns.
 * A failed attempt marks the semaphore as waited for, so every release
 * until the marker ends pushes wake-ups (kept in the list when nobody is
 * blocked yet: none is lost between the attempt's reply and the BLPOP).
 * A lease that ends by expiry pushes nothing: the block lasts no longer
 * than the earliest lease end the attempt reported (nor than
 * REDISLOCK_WAIT_RECHECK_US, as the keys can also go without a release:
 * DEL, FLUSHALL, eviction). A block too short for the server to time (it
 * checks about every 100 ms) is a local sleep instead, exactly that long.
 * A server that refuses BLPOP (an ACL) turns the rest of the wait into
 * sleeps growing from 2 to 50 ms.
 *
 * A waiting acquire begins blind (that write, no refused script first)
 * while the process knows the semaphore full for it and marked: why that
 * misses no freed permit, and how long it blocks, is in engine/seen.c.
 */
#include "php_redislock.h"
#include "engine/semaphore.h"
#include "engine/wait.h"
#include "engine/call.h"
#include "engine/seen.h"
#include "client/cluster.h"
#include "base/clock.h"
#include "base/hex.h"
#include "base/process.h"

#include <stdio.h>

/* The keys of the scripts, in their KEYS order (each takes the first few). */
static const redislock_key_kind sem_keys[] = { REDISLOCK_KEY_HOLDER, REDISLOCK_KEY_LOCK, REDISLOCK_KEY_PERMITS,
                                               REDISLOCK_KEY_WAIT, REDISLOCK_KEY_WAKE };

/* What an attempt answered. */
typedef struct sem_answer {
    bool granted;
    bool solo;         /* granted alone in the holder key: the semaphore was free */
    zend_long left;    /* granted: the permits left free (-1: granted alone) */
    zend_long soonest; /* not granted: ms until the earliest lease ends (0: not known) */
    zend_long marked;  /* not granted, marking: ms the waiters marker lives (-1: not told) */
} sem_answer;

/* One acquire() call's wait. */
typedef struct sem_wait {
    uint64_t deadline; /* monotonic us */
    bool blocking;     /* the server blocks (BLPOP); cleared when it refuses */
    uint64_t cap;      /* without blocking: the next sleep's ceiling */
} sem_wait;

void redislock_semaphore_init(redislock_semaphore *s, zend_long limit, zend_long weight)
{
    redislock_keys_init(&s->keys, ZSTR_EMPTY_ALLOC(), s->prim.key, redislock_cluster_any(s->prim.settings.servers));
    s->limit = limit;
    s->weight = weight;
    s->member_len = 0;
    s->held = s->placed = s->solo = false;
    s->marked_until = 0;
    s->keepalive = NULL;
    s->term = (redislock_term_ref) { NULL, NULL };
}

void redislock_semaphore_dtor(redislock_semaphore *s)
{
    /* The armed release is made of the keys and the member. */
    redislock_term_disarm(&s->term);
    redislock_keys_free(&s->keys);
}

bool redislock_semaphore_owned(const redislock_semaphore *s)
{
    return s->placed && s->pid == redislock_process_pid();
}

bool redislock_semaphore_holding(const redislock_semaphore *s)
{
    return s->held && redislock_semaphore_owned(s);
}

zend_long redislock_semaphore_remaining(const redislock_semaphore *s)
{
    return redislock_semaphore_holding(s) ? (zend_long) redislock_ms_until(s->valid_until) : 0;
}

/* A new token for the next hold: "<token>:<weight>". */
static int new_token(redislock_semaphore *s)
{
    unsigned char raw[REDISLOCK_SEMAPHORE_TOKEN_BYTES];

    redislock_term_disarm(&s->term); /* its release is made of the member */
    if (redislock_process_random(raw, sizeof(raw)) == FAILURE) {
        redislock_error_set(&s->prim.err, REDISLOCK_E_RANDOM, "no random bytes for the token");
        return REDISLOCK_ERR;
    }
    redislock_hex(s->member, raw, sizeof(raw));
    s->member_len = REDISLOCK_SEMAPHORE_TOKEN_LEN
                    + (size_t) snprintf(s->member + REDISLOCK_SEMAPHORE_TOKEN_LEN,
                                        sizeof(s->member) - REDISLOCK_SEMAPHORE_TOKEN_LEN, ":" ZEND_LONG_FMT,
                                        s->weight);
    s->held = s->placed = s->solo = false;
    return REDISLOCK_OK;
}

/* Starts a script call on the first n keys of the semaphore. */
static void sem_call(redislock_semaphore *s, redislock_call *c, int n)
{
    redislock_call_init(c);
    for (int i = 0; i < n; i++) {
        redislock_call_key(c, redislock_keys_get(&s->keys, sem_keys[i]));
    }
}

/* The acquire script's call: member, weight, limit, ttl, how long the
 * caller will still wait (the waiters marker lasts that long), and whether
 * it comes right behind a BLPOP on the wake-up list (it may have taken a
 * wake-up, which it then passes on while permits are left). */
static void acquire_call(redislock_semaphore *s, redislock_call *c, uint64_t deadline, bool woken)
{
    sem_call(s, c, 5);
    redislock_call_arg(c, s->member, s->member_len);
    redislock_call_long(c, s->weight);
    redislock_call_long(c, s->limit);
    redislock_call_long(c, s->prim.settings.ttl);
    redislock_call_long(c, (zend_long) redislock_ms_until(deadline));
    redislock_call_bool(c, woken);
}

/* Reads the acquire script's reply: OK (granted alone in the holder key,
 * as a plain SET NX's), the permits free after a grant (>= 0), or -1 less
 * the ms until the earliest lease ends, alone or, from a marking refusal,
 * in an array with the ms the marker lives. */
static bool read_acquire(const redisReply *r, sem_answer *a)
{
    a->solo = r && r->type == REDIS_REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0;
    a->left = a->marked = -1;
    a->soonest = 0;
    if (a->solo) {
        a->granted = true;
        return true;
    }
    if (r && r->type == REDIS_REPLY_ARRAY && r->elements == 2 && r->element[0]->type == REDIS_REPLY_INTEGER
        && r->element[0]->integer < 0 && r->element[1]->type == REDIS_REPLY_INTEGER) {
        a->marked = (zend_long) r->element[1]->integer;
        r = r->element[0];
    }
    if (!r || r->type != REDIS_REPLY_INTEGER) {
        return false;
    }
    a->granted = r->integer >= 0;
    if (a->granted) {
        a->left = (zend_long) r->integer;
    } else {
        a->soonest = (zend_long) (-1 - r->integer);
    }
    return true;
}

/* Keeps what an answer to an attempt (cmd's, sent at sent_at) says. */
static void answered(redislock_semaphore *s, const sem_answer *a, uint64_t sent_at, const redislock_cmd *cmd)
{
    if (a->granted) {
        s->held = s->placed = true;
        s->solo = s->solo || a->solo; /* a renewal keeps where its hold is */
        s->valid_until = redislock_lock_validity_end(sent_at, s->prim.settings.ttl);
        redislock_semaphore_term_arm(s, cmd);
        REDISLOCK_G(stats).acquired++;
    } else {
        redislock_semaphore_over(s);
        REDISLOCK_G(stats).contended++;
    }
}

/* A failure whose outcome is unknown leaves the token maybe placed. */
static void unknown(redislock_semaphore *s, const redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_LOST || cmd->status == REDISLOCK_CMD_TIMEOUT) {
        s->placed = true;
        s->pid = redislock_process_pid();
    }
}

/* Records what a script attempt sent at sent_at (woken: behind a BLPOP)
 * found of the semaphore (not the renewal of a hold of s's, which tells
 * nothing of others): free when it granted the hold alone, taken
 * otherwise; full, and how long the waiters marker lives (engine/seen.c). */
static void seen(redislock_semaphore *s, const sem_answer *a, bool renewal, bool woken, uint64_t sent_at)
{
    const zend_string *holder = redislock_keys_get(&s->keys, REDISLOCK_KEY_HOLDER);

    if (renewal) {
        return;
    }
    redislock_seen(holder, !a->solo);
    if (a->granted) {
        redislock_seen_sem_granted(holder, s->prim.settings.servers, s->limit, a->left, woken);
    } else {
        redislock_seen_sem_refused(holder, s->prim.settings.servers, s->limit - s->weight, a->soonest, a->marked,
                                   sent_at);
    }
}

/* One attempt, a script of its own. */
static int attempt(redislock_semaphore *s, uint64_t deadline, sem_answer *a)
{
    bool renewal = redislock_semaphore_holding(s);
    redislock_call c;
    redislock_cmd cmd;
    uint64_t sent_at = redislock_now_us();

    acquire_call(s, &c, deadline, false);
    s->pid = redislock_process_pid();
    if (redislock_prim_script(&s->prim, &redislock_script_semaphore_acquire, &c, &cmd, "acquire") != REDISLOCK_OK) {
        unknown(s, &cmd);
        return REDISLOCK_ERR;
    }
    if (!read_acquire(cmd.reply, a)) {
        return redislock_prim_unexpected(&s->prim, &cmd, "acquire");
    }
    seen(s, a, renewal, false, sent_at);
    answered(s, a, sent_at, &cmd);
    redislock_cmd_dtor(&cmd, 1);
    return REDISLOCK_OK;
}

/* The first attempt on a semaphore this process last found free: SET of
 * the holder key to the member, NX PX ttl, all the acquire script does
 * there for a caller not woken. 1 granted (alone), 0 taken (the script
 * decides; the semaphore is then remembered as taken), REDISLOCK_ERR
 * unknown or failed. */
static int plain_attempt(redislock_semaphore *s, sem_answer *a)
{
    const zend_string *holder = redislock_keys_get(&s->keys, REDISLOCK_KEY_HOLDER);
    char ttl[24];
    const char *set[6] = { "SET", ZSTR_VAL(holder), s->member, "NX", "PX", ttl };
    const size_t lens[6] = { 3, ZSTR_LEN(holder), s->member_len, 2, 2,
                             (size_t) snprintf(ttl, sizeof(ttl), ZEND_LONG_FMT, s->prim.settings.ttl) };
    const redislock_words w[1] = { { 6, set, lens } };
    redislock_netopts o = redislock_prim_netopts(&s->prim);
    redislock_cmd cmd = { 0 };
    uint64_t sent_at = redislock_now_us();

    s->pid = redislock_process_pid();
    redislock_round_pipeline(&s->prim.settings.servers->server[0], &cmd, &o, w, 1);
    if (cmd.status == REDISLOCK_CMD_OK && cmd.reply && cmd.reply->type == REDIS_REPLY_ERROR) {
        redislock_cmd_refused(&cmd, cmd.reply); /* WRONGTYPE, an ACL: fail as that */
    }
    if (cmd.status == REDISLOCK_CMD_OK && cmd.reply && cmd.reply->type == REDIS_REPLY_NIL) {
        redislock_cmd_dtor(&cmd, 1);
        redislock_seen(holder, true);
        return 0;
    }
    if (cmd.status != REDISLOCK_CMD_OK || !read_acquire(cmd.reply, a) || !a->solo) {
        unknown(s, &cmd);
        return redislock_prim_unexpected(&s->prim, &cmd, "acquire");
    }
    answered(s, a, sent_at, &cmd);
    redislock_cmd_dtor(&cmd, 1);
    redislock_seen_sem_granted(holder, s->prim.settings.servers, s->limit, -1, false);
    return 1;
}

/* The first attempt: the plain one on a semaphore this process last found
 * free (not for a renewal), the script otherwise and after a plain one
 * that found it taken. */
static int first_attempt(redislock_semaphore *s, uint64_t deadline, sem_answer *a)
{
    int said = 0;

    if (!redislock_semaphore_holding(s)
        && !redislock_seen_taken(redislock_keys_get(&s->keys, REDISLOCK_KEY_HOLDER))) {
        said = plain_attempt(s, a);
    }
    if (said != 0) {
        return said == 1 ? REDISLOCK_OK : REDISLOCK_ERR;
    }
    return attempt(s, deadline, a);
}

/* How long to block now: the rest of the wait, no longer than until the
 * earliest lease ends nor REDISLOCK_WAIT_RECHECK_US. */
static uint64_t block_us(const sem_wait *w, const sem_answer *a)
{
    uint64_t now = redislock_now_us(), left = now < w->deadline ? w->deadline - now : 0;

    if (a->soonest > 0) {
        left = MIN(left, (uint64_t) a->soonest * 1000);
    }
    return MIN(left, REDISLOCK_WAIT_RECHECK_US);
}

/* BLPOP on the wake-up list for block us with an attempt behind it, in one
 * write. */
static int blocked_attempt(redislock_semaphore *s, sem_wait *w, uint64_t block, sem_answer *a)
{
    const zend_string *wake = redislock_keys_get(&s->keys, REDISLOCK_KEY_WAKE);
    redislock_netopts o = redislock_prim_netopts(&s->prim);
    char secs[32];
    const char *blpop[3] = { "BLPOP", ZSTR_VAL(wake), secs };
    size_t lens[3] = { 5, ZSTR_LEN(wake), 0 };
    redislock_call c;
    redislock_words pipe[2];
    redislock_cmd cmd;
    const redisReply *popped;
    uint64_t sent_at;

    lens[2] = (size_t) snprintf(secs, sizeof(secs), "%.3f", (double) MAX(block, 1000) / 1e6);
    acquire_call(s, &c, w->deadline, true);
    redislock_call_evalsha(&c, &redislock_script_semaphore_acquire);
    pipe[0] = (redislock_words) { 3, blpop, lens };
    pipe[1] = (redislock_words) { c.argc, c.argv, c.lens };
    /* The server answers when woken, or when its own timeout ends, which it
     * notices on its next timer tick. */
    o.read_timeout += (zend_long) (block / 1000) + REDISLOCK_BLOCK_SLACK_MS;
    o.blocking = true;
    memset(&cmd, 0, sizeof(cmd));
    s->pid = redislock_process_pid();
    sent_at = redislock_now_us();
    redislock_round_pipeline(&s->prim.settings.servers->server[0], &cmd, &o, pipe, 2);
    popped = redislock_cmd_reply(&cmd, 1) ? redislock_cmd_reply(&cmd, 0) : NULL;
    if (popped && popped->type == REDIS_REPLY_ERROR) {
        w->blocking = false; /* refused: sleeps from now on */
    } else if (popped && popped->type == REDIS_REPLY_ARRAY) {
        REDISLOCK_G(stats).waits++;
    }
    if (redislock_round_noscript(&cmd)) {
        /* The server lost the script: the plain attempt loads it again. */
        redislock_cmd_dtor(&cmd, 1);
        return attempt(s, w->deadline, a);
    }
    if (cmd.status != REDISLOCK_CMD_OK || !read_acquire(cmd.reply, a)) {
        unknown(s, &cmd);
        return redislock_prim_unexpected(&s->prim, &cmd, "acquire");
    }
    seen(s, a, false, true, sent_at);
    answered(s, a, sent_at, &cmd);
    redislock_cmd_dtor(&cmd, 1);
    return REDISLOCK_OK;
}

/* Waits for a chance and attempts again. */
static int wait_once(redislock_semaphore *s, sem_wait *w, sem_answer *a)
{
    uint64_t block = block_us(w, a);

    if (w->blocking && block >= REDISLOCK_BLOCK_MIN_US) {
        return blocked_attempt(s, w, block, a);
    }
    if (!w->blocking) {
        block = MIN(block, w->cap);
        w->cap = MIN(w->cap * 2, REDISLOCK_BACKOFF_MAX_US);
    }
    redislock_prim_sleep(block);
    return attempt(s, w->deadline, a);
}

int redislock_semaphore_acquire(redislock_semaphore *s, zend_long wait_ms, bool *acquired)
{
    sem_wait w = { redislock_now_us() + (uint64_t) wait_ms * 1000, true, REDISLOCK_BACKOFF_MIN_US };
    sem_answer a = { false, false, -1, 0, -1 };
    /* Blind: while the process knows the semaphore full and marked (above). */
    uint64_t blind = wait_ms > 0 && !redislock_semaphore_holding(s)
                         ? redislock_seen_sem_blind_us(redislock_keys_get(&s->keys, REDISLOCK_KEY_HOLDER),
                                                       s->prim.settings.servers, s->limit - s->weight, w.deadline)
                         : 0;
    int rc;

    *acquired = false;
    if (!redislock_semaphore_holding(s) && new_token(s) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    rc = blind ? blocked_attempt(s, &w, blind, &a) : first_attempt(s, w.deadline, &a);
    while (rc == REDISLOCK_OK && !a.granted && redislock_now_us() < w.deadline) {
        rc = wait_once(s, &w, &a);
    }
    *acquired = rc == REDISLOCK_OK && a.granted;
    return rc;
}

/* Runs a script on the semaphore's first nkeys keys with the arguments
 * argv (n of them), expecting an integer reply in *out; with renew, a reply
 * of 1 renewed the hold, whose release for SIGTERM is armed again (on the
 * connection of the renewal: it may have changed, reconnected). */
static int sem_script(redislock_semaphore *s, const redislock_script *script, int nkeys, const char **argv,
                      const size_t *lens, int n, zend_long *out, const char *what, bool renew)
{
    redislock_call c;
    redislock_cmd cmd;

    sem_call(s, &c, nkeys);
    for (int i = 0; i < n; i++) {
        redislock_call_arg(&c, argv[i], lens[i]);
    }
    if (redislock_prim_script(&s->prim, script, &c, &cmd, what) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (!cmd.reply || cmd.reply->type != REDIS_REPLY_INTEGER) {
        return redislock_prim_unexpected(&s->prim, &cmd, what);
    }
    *out = (zend_long) cmd.reply->integer;
    if (renew && *out == 1) {
        redislock_semaphore_term_arm(s, &cmd);
    }
    redislock_cmd_dtor(&cmd, 1);
    return REDISLOCK_OK;
}

/* Whether s's release may be plain_release(): a hold of weight 1 granted
 * into the holds (one granted alone may be there still, or moved) whose
 * lease surely runs on the server (its local validity, from the send of the
 * grant or last renewal), no leftover tokens to go ahead of a script, and
 * not known to be waited for (the script frees and wakes in one step; a
 * wake-up a round trip later lets newcomers take the permit first). */
static bool plain_release_fits(const redislock_semaphore *s)
{
    uint64_t now = redislock_now_us();

    return s->weight == 1 && !s->solo && redislock_semaphore_holding(s) && now < s->valid_until
           && now >= s->marked_until && REDISLOCK_G(nleftovers) == 0;
}

/* Pushes one wake-up for ms (the marker's pttl) as semaphore_release.lua:
 * RPUSH, LTRIM to 16 pending, PEXPIRE. One lost to a failure costs a waiter
 * a later try (no block outlasts REDISLOCK_WAIT_RECHECK_US). */
static void plain_wake(redislock_semaphore *s, zend_long ms)
{
    const zend_string *wake = redislock_keys_get(&s->keys, REDISLOCK_KEY_WAKE);
    redislock_netopts o = redislock_prim_netopts(&s->prim);
    redislock_cmd cmd;
    char exp[24];
    const char *push[3] = { "RPUSH", ZSTR_VAL(wake), "1" }, *trim[4] = { "LTRIM", ZSTR_VAL(wake), "0", "15" };
    const char *pexpire[3] = { "PEXPIRE", ZSTR_VAL(wake), exp };
    const size_t push_lens[3] = { 5, ZSTR_LEN(wake), 1 }, trim_lens[4] = { 5, ZSTR_LEN(wake), 1, 2 };
    const size_t pexpire_lens[3] = { 7, ZSTR_LEN(wake), (size_t) snprintf(exp, sizeof(exp), ZEND_LONG_FMT, ms) };
    const redislock_words w[3] = { { 3, push, push_lens }, { 4, trim, trim_lens }, { 3, pexpire, pexpire_lens } };

    memset(&cmd, 0, sizeof(cmd));
    redislock_round_pipeline(&s->prim.settings.servers->server[0], &cmd, &o, w, 3);
    redislock_cmd_dtor(&cmd, 1);
}

/* Gives back a hold that plain_release_fits(): ZREM of its member and PTTL
 * of the waiters marker in one write. ZREM's 1: it was there, so ours and
 * live (its lease cannot end before the local validity); 0: gone (forced,
 * keys lost). When waiters are marked, a second write pushes one wake-up;
 * none is lost (engine/native.c's reasoning for the lock: a waiter marks in
 * the script that found no permit, so the PTTL sees it). */
static int plain_release(redislock_semaphore *s, zend_long *n)
{
    const zend_string *holds = redislock_keys_get(&s->keys, REDISLOCK_KEY_LOCK);
    const zend_string *wait = redislock_keys_get(&s->keys, REDISLOCK_KEY_WAIT);
    const char *zrem[3] = { "ZREM", ZSTR_VAL(holds), s->member }, *pttl[2] = { "PTTL", ZSTR_VAL(wait) };
    const size_t zrem_lens[3] = { 4, ZSTR_LEN(holds), s->member_len }, pttl_lens[2] = { 4, ZSTR_LEN(wait) };
    const redislock_words w[2] = { { 3, zrem, zrem_lens }, { 2, pttl, pttl_lens } };
    redislock_netopts o = redislock_prim_netopts(&s->prim);
    const redisReply *removed, *marked;
    redislock_cmd cmd = { 0 };
    uint64_t sent_at = redislock_now_us();

    redislock_round_pipeline(&s->prim.settings.servers->server[0], &cmd, &o, w, 2);
    removed = redislock_cmd_reply(&cmd, 0);
    marked = redislock_cmd_reply(&cmd, 1);
    if (cmd.status == REDISLOCK_CMD_OK && removed && removed->type == REDIS_REPLY_ERROR) {
        redislock_cmd_refused(&cmd, removed); /* WRONGTYPE, an ACL: fail as that */
    }
    if (cmd.status != REDISLOCK_CMD_OK || !removed || removed->type != REDIS_REPLY_INTEGER || !marked
        || marked->type != REDIS_REPLY_INTEGER) {
        return redislock_prim_unexpected(&s->prim, &cmd, "release");
    }
    *n = (zend_long) removed->integer;
    if (marked->integer > 0) {
        s->marked_until = redislock_now_us() + (uint64_t) marked->integer * 1000;
        redislock_seen_sem_marked(redislock_keys_get(&s->keys, REDISLOCK_KEY_HOLDER), s->prim.settings.servers,
                                  (zend_long) marked->integer, sent_at);
        if (*n == 1) {
            plain_wake(s, (zend_long) marked->integer);
        }
    }
    redislock_cmd_dtor(&cmd, 1);
    return REDISLOCK_OK;
}

int redislock_semaphore_release(redislock_semaphore *s, bool *released)
{
    const char *argv[2] = { s->member, "0" };
    size_t lens[2] = { s->member_len, 1 };
    zend_long n;

    *released = false;
    if (!redislock_semaphore_owned(s)) {
        return REDISLOCK_OK;
    }
    if ((plain_release_fits(s)
             ? plain_release(s, &n)
             : sem_script(s, &redislock_script_semaphore_release, 5, argv, lens, 2, &n, "release", false))
        != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    *released = n == 1;
    if (*released) {
        REDISLOCK_G(stats).released++;
    } else {
        REDISLOCK_G(stats).released_lost++;
    }
    redislock_semaphore_over(s);
    return REDISLOCK_OK;
}

int redislock_semaphore_extend(redislock_semaphore *s, zend_long ttl, bool *extended)
{
    char num[24];
    const char *argv[2] = { s->member, num };
    size_t lens[2] = { s->member_len, 0 };
    uint64_t sent_at = redislock_now_us();
    zend_long n;

    *extended = false;
    if (!redislock_semaphore_holding(s)) {
        return REDISLOCK_OK;
    }
    lens[1] = (size_t) snprintf(num, sizeof(num), ZEND_LONG_FMT, ttl);
    if (sem_script(s, &redislock_script_semaphore_extend, 3, argv, lens, 2, &n, "extend", true) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    *extended = n == 1;
    if (*extended) {
        s->valid_until = redislock_lock_validity_end(sent_at, ttl);
        REDISLOCK_G(stats).extended++;
    } else {
        redislock_semaphore_over(s);
        REDISLOCK_G(stats).extend_failed++;
    }
    return REDISLOCK_OK;
}

int redislock_semaphore_check(redislock_semaphore *s, bool *held)
{
    const char *argv[1] = { s->member };
    size_t lens[1] = { s->member_len };
    uint64_t sent_at = redislock_now_us();
    zend_long left;

    *held = false;
    if (!redislock_semaphore_holding(s)) {
        return REDISLOCK_OK;
    }
    if (sem_script(s, &redislock_script_semaphore_check, 2, argv, lens, 1, &left, "isAcquired", false)
        != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    *held = left > 0;
    if (*held) {
        s->valid_until = MIN(s->valid_until, redislock_lock_validity_end(sent_at, left));
    } else {
        redislock_semaphore_over(s);
    }
    return REDISLOCK_OK;
}

int redislock_semaphore_available(redislock_semaphore *s, zend_long *free)
{
    char num[24];
    const char *argv[1] = { num };
    size_t lens[1];

    lens[0] = (size_t) snprintf(num, sizeof(num), ZEND_LONG_FMT, s->limit);
    return sem_script(s, &redislock_script_semaphore_available, 3, argv, lens, 1, free, "available", false);
}

int redislock_semaphore_force_release(redislock_semaphore *s, bool *freed)
{
    const char *argv[2] = { "", "1" };
    size_t lens[2] = { 0, 1 };
    zend_long n;

    if (sem_script(s, &redislock_script_semaphore_release, 5, argv, lens, 2, &n, "forceRelease", false)
        != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    *freed = n == 1;
    return REDISLOCK_OK;
}

bool redislock_semaphore_lease_of(redislock_semaphore *s, redislock_semaphore_lease *lease)
{
    if (!redislock_semaphore_holding(s)) {
        return false;
    }
    lease->script = &redislock_script_semaphore_extend;
    lease->holder = redislock_keys_get(&s->keys, REDISLOCK_KEY_HOLDER);
    lease->holds = redislock_keys_get(&s->keys, REDISLOCK_KEY_LOCK);
    lease->permits = redislock_keys_get(&s->keys, REDISLOCK_KEY_PERMITS);
    lease->member = s->member;
    lease->member_len = s->member_len;
    lease->ttl = s->prim.settings.ttl;
    return true;
}
