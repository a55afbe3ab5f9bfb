/*
 * Waiting for a release, on one server or a quorum: blocked on the servers
 * until a release wakes us.
 *
 * The first attempt is a plain SET NX PX on every server (unless the lock
 * is known to be waited for: below). When it finds the lock taken (or the
 * object had to wait before), each further attempt on one server is one
 * write of three commands:
 *
 *   1. the acquire script, which tries the lock and, when it is taken, marks
 *      it as waited for (so the release script pushes a wake-up);
 *   2. BLPOP on our own wake-up list and the lock's, for no longer than the
 *      holder's lease (or a second: see REDISLOCK_WAIT_RECHECK_US);
 *   3. the next attempt (SET NX PX, or with fencing the acquire script),
 *      which the server runs as soon as the BLPOP returns, in the same turn
 *      of its event loop and before it writes any reply (commands it has
 *      already read from other clients in that turn may run first).
 *
 * When the script takes the lock, it pushes onto our own list (or leaves
 * the lock's list the wake-up a release left there), so that the BLPOP
 * returns at once and the attempt behind it finds the lock ours; it does
 * the same when the holder's lease ends before the BLPOP would. It does not
 * take a lock that a release has just handed to a woken waiter whose SET
 * has not run yet (lua/acquire.lua). So a
 * waiter costs one round trip per try, and a release hands the key to the
 * waiter that blocked first, in the same round trip as the release, before
 * the releaser can take it back.
 *
 * A quorum waiter marks the lock in a round of its own (the script alone),
 * then sends the BLPOP on the lock's list with the attempt behind it to
 * every server: each server hands its key to the waiter that blocked there
 * first. (A marking script in the same write could take the lock on a
 * minority of the servers while blocking on the rest, holding up the
 * waiters blocked there while they hold it up.)
 *
 * The marking script also says how long the lock stays marked, and the
 * marker's expiry only ever moves later, so until then every release leaves
 * a wake-up, in the list when nobody is blocked. The process keeps that per
 * lock, and while it lasts a waiting acquire begins with the BLPOP and the
 * attempt alone (see wait_blind): no plain attempt and no script on one
 * server, no marking round on a quorum. Under contention nearly every
 * acquire does this, so a critical section costs the server one script
 * (the release) instead of two.
 *
 * On a quorum the round ends once a quorum took the lock (or cannot), and as
 * soon as one server answered and the rest had REDISLOCK_BLOCK_GRACE_US more:
 * the wake-ups of one release reach every server at once, and one not there
 * by then went to another waiter, who may be waiting for the very wake-ups
 * we took. The BLPOPs still blocked then are closed, so that they cannot
 * take a later wake-up meant for another waiter, and a waiter left with the
 * key on a minority of servers gives it back at once (the release wakes the
 * next waiter there). Servers that refuse BLPOP (an ACL without it) turn the
 * rest of the wait into backoff.
 */
#include "php_redislock.h"
#include "zend_smart_str.h"
#include "engine/wait_wakeup.h"
#include "engine/wait.h"
#include "engine/attempt.h"
#include "engine/lock.h"
#include "client/reply.h"
#include "base/clock.h"
#include "base/hex.h"
#include "base/process.h"

#define WAITER_ID_BYTES 8
#define WAITER_ID_LEN (WAITER_ID_BYTES * 2)

/* What the strategy keeps of a lock from one acquire() to the next (in
 * l->wait_kept, zeroed with the object). */
typedef struct wakeup_kept {
    uint64_t marked_until; /* the lock is known to be marked as waited for until then
                              (monotonic microseconds; 0 when not known) */
    bool script_seen;      /* the server ran the acquire script for us: it has it cached */
    bool waited_before;    /* an acquire() of this object had to wait */
} wakeup_kept;

/* One acquire() call's own state (in w->own, all zero when the call
 * starts). A write is blind (the BLPOP and the attempt alone, see
 * wait_blind()) while w->block_until is set. */
typedef struct wakeup_call {
    bool marked; /* the lock is marked as waited for (attempts by script) */
    bool reload; /* the server lost the acquire script; the next attempt loads it */
    bool tried;  /* this call has made its first attempt */
    char waiter_id[WAITER_ID_LEN + 1]; /* hex, random, names our own wake-up list ("" until a wait needs it) */
} wakeup_call;

REDISLOCK_WAIT_FITS(wakeup_kept, ((redislock_lock *) 0)->wait_kept);
REDISLOCK_WAIT_FITS(wakeup_call, ((redislock_wait *) 0)->own);

/* The strategy's state of the lock. */
static inline wakeup_kept *kept_of(const redislock_lock *l)
{
    return (wakeup_kept *) l->wait_kept.bytes;
}

/* The strategy's state of this call. */
static inline wakeup_call *call_of(const redislock_wait *w)
{
    return (wakeup_call *) w->own.bytes;
}

/* {{{ How long locks stay marked as waited for, as far as this process
 * knows: kept for the lock's later objects too, as every request makes a
 * new one under PHP-FPM. Emptied when it holds this many locks. */
#define REDISLOCK_MARKED_MAX 1024

/* The table's key for the lock: its key, then each server's identity. */
static void marked_key(const redislock_lock *l, smart_str *key)
{
    const redislock_servers *list = l->settings.servers;

    smart_str_append(key, REDISLOCK_LKEY(l, LOCK));
    for (uint32_t i = 0; i < list->count; i++) {
        smart_str_appendc(key, '\0');
        smart_str_appendl(key, list->server[i].id, list->server[i].id_len);
    }
    smart_str_0(key);
}

/* Notes that the lock stays marked until sent_at + least_ms at least, by
 * our clock (the marker's expiry only moves later), when servers (a quorum
 * at least) said so: a release until then leaves a wake-up there. The
 * process keeps it for the lock's later objects too. */
static void note_marked(redislock_lock *l, zend_long least_ms, uint32_t servers, uint64_t sent_at)
{
    HashTable *t = REDISLOCK_G(marked);
    smart_str key = { 0 };
    zval until;

    if (least_ms <= 0 || servers < redislock_lock_quorum(l)) {
        return;
    }
    kept_of(l)->marked_until = sent_at + (uint64_t) least_ms * 1000;
    if (!t) {
        t = REDISLOCK_G(marked) = pemalloc(sizeof(HashTable), 1);
        zend_hash_init(t, 16, NULL, NULL, 1);
    }
    if (zend_hash_num_elements(t) >= REDISLOCK_MARKED_MAX) {
        zend_hash_clean(t);
    }
    marked_key(l, &key);
    ZVAL_LONG(&until, (zend_long) kept_of(l)->marked_until);
    zend_hash_str_update(t, ZSTR_VAL(key.s), ZSTR_LEN(key.s), &until);
    smart_str_free(&key);
}

/* Until when the lock is known to stay marked (0: not known). */
static uint64_t marked_until(const redislock_lock *l)
{
    HashTable *t = REDISLOCK_G(marked);
    smart_str key = { 0 };
    uint64_t until = kept_of(l)->marked_until;
    zval *known;

    if (t) {
        marked_key(l, &key);
        if ((known = zend_hash_str_find(t, ZSTR_VAL(key.s), ZSTR_LEN(key.s))) != NULL) {
            until = MAX(until, (uint64_t) Z_LVAL_P(known));
        }
        smart_str_free(&key);
    }
    return until;
}

/* Frees the table (module shutdown). */
void redislock_wait_wakeup_forget(void)
{
    HashTable *t = REDISLOCK_G(marked);

    if (t) {
        zend_hash_destroy(t);
        pefree(t, 1);
        REDISLOCK_G(marked) = NULL;
    }
}
/* }}} */

/* Whether the next attempt goes in one write with a BLPOP: on one server,
 * once the lock is known to be contended, while the server can block long
 * enough to time it, and unless it has just lost the acquire script (the
 * plain attempt loads it again). A quorum waiter marks the lock first, in a
 * round of its own: a script that took the lock on a minority of the
 * servers while blocking on the rest would hold up the waiters blocked
 * there, and they it. */
static bool attempt_with_wait(const redislock_lock *l, const redislock_wait *w)
{
    const wakeup_call *c = call_of(w);

    return l->settings.servers->count == 1 && c->marked && w->blocking && !c->reload
           && redislock_wait_block_us(w) >= REDISLOCK_BLOCK_MIN_US;
}

/* Whether this acquire's first write can be the BLPOP and the attempt alone,
 * without the marking script (on a quorum: without the marking round): when
 * the lock is known to stay marked as waited for long enough to block. It
 * was held when a marking script said so, and until the marker ends every
 * release leaves a wake-up: the lock is free only with a wake-up waiting in
 * the list (for our BLPOP to take at once), or once a waiter took it (who
 * holds the lock, or soon will, and whose release wakes the next). So the
 * BLPOP cannot miss a release. It can miss a lease that runs out, which
 * nobody announces: whose lease it is we do not know, so the block lasts no
 * longer than half our own ttl (and a second), which also leaves the lease
 * that the SET behind a block that timed out took (dated from when the
 * write went) at least half its length. */
static bool wait_blind(redislock_lock *l, redislock_wait *w)
{
    wakeup_call *c = call_of(w);
    uint64_t slack = (uint64_t) REDISLOCK_BLOCK_SLACK_MS * 1000, until;

    if (c->tried || !w->waiting || !w->blocking || c->reload
        || (until = marked_until(l)) <= redislock_now_us() + slack) {
        return false;
    }
    w->block_until = until - slack;
    w->pttl = l->settings.ttl / 2;
    if (redislock_wait_block_us(w) < REDISLOCK_BLOCK_MIN_US) {
        w->block_until = 0;
        w->pttl = -1;
        return false;
    }
    c->marked = true;
    return true;
}

/* One attempt on every server (see redislock_attempt_try()); a marking one
 * (mark_ms > 0) notes how long the lock stays marked. */
static int try_once(redislock_lock *l, redislock_wait *w, zend_long mark_ms, bool *result)
{
    redislock_attempt_seen seen;
    int rc = redislock_attempt_try(l, mark_ms, result, &seen);

    w->pttl = seen.pttl;
    if (mark_ms > 0) {
        note_marked(l, seen.marked_ms, seen.marked_by, seen.sent_at);
    }
    return rc;
}

/* The attempt: none when it goes with the wait, else a plain one and, when
 * it found the lock taken and we will wait, a marking one. */
static int wakeup_attempt(redislock_lock *l, redislock_wait *w, bool *result)
{
    wakeup_call *c = call_of(w);
    bool blind;

    if (!c->tried) {
        /* A lock that had to wait before is likely to again: its first
         * attempt marks it as waited for (one command less than a SET that
         * fails, then the marking script). */
        c->marked = kept_of(l)->waited_before && w->waiting;
    }
    blind = wait_blind(l, w);
    c->tried = true;
    if (blind || attempt_with_wait(l, w)) {
        /* The wait that follows attempts, in the same write. */
        *result = false;
        return REDISLOCK_OK;
    }
    if (!c->marked) {
        int rc = try_once(l, w, 0, result);
        if (rc != REDISLOCK_OK || *result || !w->blocking || redislock_now_us() >= w->deadline) {
            return rc;
        }
        /* Taken, and we will wait: mark it as waited for. */
        c->marked = true;
        if (attempt_with_wait(l, w)) {
            return REDISLOCK_OK;
        }
    }
    c->reload = false;
    return try_once(l, w, w->blocking ? (zend_long) redislock_ms_until(w->deadline) : 0, result);
}

/* The acquire script's call that goes before the BLPOP: KEYS = lock, fence
 * counter, waiters marker, the lock's wake-up list, our own; ARGV = token,
 * ttl, fenced, the rest of the wait (the marker lasts that long), and how
 * short a lease the holder may have left before we do not block (only when
 * the block was not timed by a lease known already). */
static void marking_call_init(redislock_call *c, const redislock_lock *l, const redislock_wait *w,
                              zend_string *own, uint64_t block)
{
    static const redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, REDISLOCK_KEY_FENCE, REDISLOCK_KEY_WAIT,
                                                REDISLOCK_KEY_WAKE };

    redislock_call_init(c);
    for (int i = 0; i < 4; i++) {
        redislock_call_key(c, redislock_lock_key(l, keys[i]));
    }
    redislock_call_key(c, own);
    redislock_call_arg(c, l->token, REDISLOCK_TOKEN_LEN);
    redislock_call_long(c, l->settings.ttl);
    redislock_call_bool(c, l->settings.fencing);
    redislock_call_long(c, (zend_long) redislock_ms_until(w->deadline));
    redislock_call_long(c, w->pttl < 0 ? (zend_long) (block / 1000) : 0);
    /* NOSCRIPT here would leave the BLPOP blocked with the lock unmarked:
     * until the servers have run the script for us, they get the body. */
    if (kept_of(l)->script_seen) {
        redislock_call_evalsha(c, &redislock_script_acquire);
    } else {
        c->argv[0] = "EVAL";
        c->lens[0] = 4;
        c->argv[1] = redislock_script_acquire.body;
        c->lens[1] = redislock_script_acquire.len;
    }
}

/* The commands of our write: the marking script (one server only, unless
 * the write is blind), the BLPOP, the attempt. */
static int our_commands(const redislock_lock *l, const redislock_wait *w)
{
    return l->settings.servers->count == 1 && !w->block_until ? 3 : 2;
}

/* The reply to command k (0: the marking script, NULL when there is none;
 * 1: the BLPOP) of our write; our leftover tokens' releases may have gone
 * first in it. */
static const redisReply *our_reply(const redislock_lock *l, const redislock_wait *w, const redislock_cmd *cmd,
                                   int k)
{
    int ours = our_commands(l, w);

    if (ours == 2 && k == 0) {
        return NULL;
    }
    return redislock_cmd_reply(cmd, cmd->count - 3 + k);
}

/* A server the round gave up on (closed once the others had answered), not
 * one that failed to answer in time: the round's deadline had not come. */
static bool given_up(const redislock_cmd *cmd, uint64_t deadline)
{
    return cmd->status == REDISLOCK_CMD_TIMEOUT && redislock_now_us() + 1000 < deadline;
}

/* Counts one server's answers to the write into the tally. Returns whether
 * the script took the lock there (the BLPOP then waited for nothing). */
static bool tally_server(redislock_lock *l, redislock_wait *w, redislock_cmd *cmd, const redislock_attempt_cmd *a,
                         redislock_tally *t, zend_long *fence, uint64_t deadline)
{
    const redisReply *first = our_reply(l, w, cmd, 0);
    uint32_t bit = (uint32_t) 1 << cmd->idx;
    zend_long n = 0, pttl = -1;
    int said = redislock_attempt_reply(first, &n);

    kept_of(l)->script_seen = kept_of(l)->script_seen && (said >= 0 || our_commands(l, w) == 2);
    if (said == 1) {
        *fence = MAX(*fence, n);
        redislock_tally_yes(t, cmd);
        return true;
    }
    if (said == 0) {
        w->pttl = MAX(w->pttl, n);
    } else if (redislock_round_noscript_reply(first)) {
        /* The server lost it (SCRIPT FLUSH, a restart, a failover): nothing
         * ran but the BLPOP and the attempt. The next attempt loads it. */
        call_of(w)->reload = true;
    } else if (first) {
        /* Refused, or failed midway (it may have set the key first). */
        t->mayhold |= bit;
        if (our_reply(l, w, cmd, 1)
            && (a->scripted ? redislock_attempt_vote_script : redislock_attempt_vote_set)(cmd) != 1) {
            redislock_cmd_refused(cmd, first); /* what the pipeline failed on */
        }
    }
    if (given_up(cmd, deadline)) {
        /* Still blocked: nothing ran, unless the server woke us just then.
         * A no, with our token maybe there (a leftover). */
        redislock_tally_no(t, cmd);
        t->mayhold |= bit;
        t->replied &= ~bit;
    } else if (!our_reply(l, w, cmd, 1)) {
        redislock_tally_failure(t, cmd);
    } else if (a->scripted && redislock_round_noscript(cmd)) {
        redislock_tally_no(t, cmd);
        call_of(w)->reload = true;
    } else {
        redislock_attempt_tally(t, cmd, a, fence, &pttl);
    }
    return false;
}

/* Our own wake-up list: the lock's, and a random name (so that it says
 * nothing of the token), made once per token. */
static zend_string *own_list(const redislock_lock *l, redislock_wait *w)
{
    const zend_string *wake = REDISLOCK_LKEY(l, WAKE);
    char *id = call_of(w)->waiter_id;

    if (!id[0]) {
        unsigned char raw[WAITER_ID_BYTES];
        uint64_t now = redislock_now_us();
        if (redislock_process_random(raw, sizeof(raw)) == FAILURE) {
            memcpy(raw, &now, MIN(sizeof(raw), sizeof(now)));
        }
        redislock_hex(id, raw, sizeof(raw));
    }
    return zend_string_concat3(ZSTR_VAL(wake), ZSTR_LEN(wake), ":", 1, id, WAITER_ID_LEN);
}

/* Sends the write (on one server: the marking script, BLPOP on our own list
 * and the lock's; on a quorum: BLPOP on the lock's list; then attempt a) to
 * every server and gathers the answers. Returns the round's deadline. */
static uint64_t send_pipeline(redislock_lock *l, redislock_wait *w, uint64_t block, redislock_cmd *cmds,
                              redislock_attempt_cmd *a, uint64_t *sent_at)
{
    const zend_string *wake = REDISLOCK_LKEY(l, WAKE);
    zend_string *own = NULL;
    redislock_netopts o = redislock_lock_netopts(l);
    redislock_enough e;
    redislock_call mark;
    redislock_words pipe[3];
    int k = 0;
    char secs[32];
    const char *blpop[4] = { "BLPOP", "BLPOP", ZSTR_VAL(wake), secs };
    size_t lens[4] = { 5, 5, ZSTR_LEN(wake), 0 };

    lens[3] = (size_t) snprintf(secs, sizeof(secs), "%.3f", (double) MAX(block, 1000) / 1e6);
    if (a->scripted) {
        redislock_call_evalsha(&a->c, &redislock_script_acquire);
    }
    if (our_commands(l, w) == 3) {
        own = own_list(l, w);
        blpop[1] = ZSTR_VAL(own);
        lens[1] = ZSTR_LEN(own);
        marking_call_init(&mark, l, w, own, block);
        pipe[k++] = (redislock_words) { mark.argc, mark.argv, mark.lens };
        pipe[k++] = (redislock_words) { 4, blpop, lens };
    } else {
        /* BLPOP on the lock's list alone. */
        pipe[k++] = (redislock_words) { 3, blpop + 1, lens + 1 };
    }
    pipe[k++] = (redislock_words) { a->c.argc, a->c.argv, a->c.lens };
    /* The servers answer when woken or when their own timeout ends, which
     * they notice on their next timer tick. */
    o.read_timeout += (zend_long) (block / 1000) + REDISLOCK_BLOCK_SLACK_MS;
    o.blocking = true;
    redislock_lock_decide_early(l, &o, &e, cmds,
                                a->scripted ? redislock_attempt_vote_script : redislock_attempt_vote_set);
    *sent_at = redislock_now_us();
    redislock_round_send_pipeline(l->settings.servers, redislock_lock_all_servers(l), &o, cmds, pipe, k);
    if (own) {
        zend_string_release(own);
    }
    return *sent_at + (uint64_t) o.read_timeout * 1000;
}

/* One attempt in one write with a BLPOP to each server (see the top). */
static redislock_waited wakeup_wait(redislock_lock *l, redislock_wait *w, bool *result)
{
    uint32_t n = l->settings.servers->count, ended = 0, refused = 0, erred = 0;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_attempt_cmd a;
    uint64_t block, sent_at, deadline;
    redislock_waited slept;
    zend_long fence = 0;

    *result = false;
    kept_of(l)->waited_before = true;
    if (!redislock_wait_may_block(w, &block, &slept)) {
        return slept;
    }
    redislock_attempt_init(&a, l, 0);
    l->has_token = true;
    l->pid = redislock_process_pid();
    deadline = send_pipeline(l, w, block, cmds, &a, &sent_at);
    w->pttl = -1;
    /* A blind write ran no script: the server may still not have it. */
    kept_of(l)->script_seen = kept_of(l)->script_seen || !w->block_until;
    for (uint32_t i = 0; i < n; i++) {
        const redisReply *b = our_reply(l, w, &cmds[i], 1);
        refused += b && b->type == REDIS_REPLY_ERROR;
        if (our_commands(l, w) == 3) {
            note_marked(l, redislock_attempt_marked_ms(our_reply(l, w, &cmds[i], 0)), 1, sent_at);
        }
        if (!tally_server(l, w, &cmds[i], &a, &t, &fence, deadline)) {
            ended += b && b->type != REDIS_REPLY_ERROR;
        }
        erred += cmds[i].status == REDISLOCK_CMD_ERROR;
    }
    w->block_until = 0;
    if (ended > 0) {
        /* A wait for a release that ended: woken, or timed out. */
        REDISLOCK_G(stats).waits++;
    }
    l->placed = t.mayhold;
    /* Every command ran after the write was sent: the lease is dated from
     * then, by our own clock, never by the server's. */
    if (redislock_attempt_end(l, cmds, &t,
                              t.yes >= redislock_lock_quorum(l)
                                  && (!l->settings.fencing || n == 1 || redislock_attempt_fence_recorded(l, fence)),
                              redislock_lock_validity_end(sent_at, l->settings.ttl), fence, result)
        != REDISLOCK_OK) {
        if (erred > 0 && refused < redislock_lock_quorum(l)) {
            /* Refused: the servers' answer. */
            return REDISLOCK_WAIT_FAILED;
        }
        /* No answer: the next attempt (a plain one) finds out whether the
         * servers are gone. */
        w->blocking = false;
    }
    if (*result) {
        return REDISLOCK_WAIT_TRIED;
    }
    if (refused >= redislock_lock_quorum(l)) {
        w->blocking = false;
    }
    return w->blocking ? REDISLOCK_WAIT_TRIED : redislock_wait_sleep(w, UINT64_MAX);
}

/* Nothing to undo: a waiter leaves nothing on the servers but its lapsing
 * marker. */
static void wakeup_give_up(redislock_lock *l, redislock_wait *w)
{
    (void) l;
    (void) w;
}

const redislock_wait_ops redislock_wait_wakeup = {
    "wakeup", wakeup_attempt, wakeup_wait, wakeup_give_up,
};
