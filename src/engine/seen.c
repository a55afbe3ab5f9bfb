/*
 * What this process last found of each lock a share was taken of: free, or
 * taken (by a writer or by other readers). A share of a lock last found
 * free starts with a plain SET NX PX, one last found taken with the read
 * script (engine/shared.c), so that either way it takes one round trip.
 * A semaphore's holds do the same with its holder key (engine/semaphore.c).
 * The hashes of the keys found taken sit in a small table of the process,
 * in slots by hash: a key that shares a slot with another only costs an
 * attempt a round trip more, never a wrong answer. A second table keeps
 * what a semaphore's waiting acquire begins with (below).
 */
#include "php_redislock.h"
#include "engine/seen.h"
#include "engine/wait.h"
#include "base/clock.h"

static zend_ulong *slot_of(const zend_string *key, zend_ulong *h)
{
    *h = zend_string_hash_val((zend_string *) key);
    return &REDISLOCK_G(keys_seen)[*h % REDISLOCK_KEYS_SEEN];
}

bool redislock_seen_taken(const zend_string *key)
{
    zend_ulong h, *slot = slot_of(key, &h);

    return *slot == h;
}

void redislock_seen(const zend_string *key, bool taken)
{
    zend_ulong h, *slot = slot_of(key, &h);

    if (taken) {
        *slot = h;
    } else if (*slot == h) {
        *slot = 0;
    }
}

/* {{{ What this process knows of a semaphore's waiters, for the blind
 * first write of a waiting acquire (engine/semaphore.c): until when its
 * waiters marker lives, whether the last attempt seen found it full (more
 * than room permits held, room being that object's limit less its weight)
 * with the marker alive since, and when the earliest lease the last
 * refusal saw ends. In slots by the hash of the holder key and the
 * servers: a semaphore that shares a slot with another loses what was
 * known, nothing more.
 *
 * Why a blind BLPOP finds a freed permit: while the marker lives, each
 * release pushes a wake-up per permit it frees (up to 16 pending), and a
 * woken grant that leaves permits free passes one on when none is pending.
 * From a moment the semaphore was full for us (a refusal, the grant of the
 * last permit) or its free permits announced (a woken grant: "full" below
 * covers both), a permit free for us thus has a wake-up pending, which the
 * BLPOP takes at once. The cases where a permit is free with none pending:
 *
 * - A grant by a caller not woken (a plain SET NX, a first script) takes a
 *   permit a wake-up announced and leaves the wake-up: a woken waiter then
 *   is refused and blocks again. A round trip, harmless.
 * - A lease that ends by expiry pushes nothing: a blind block lasts no
 *   longer than the earliest lease end the last refusal reported, and
 *   without one known there is no blind block. A lease granted since ends
 *   later with the same ttl; another object's shorter ttl, a lease renewed
 *   shorter, keys that go without a release (DEL, FLUSHALL, eviction, a
 *   restart or failover, which also lose the script: NOSCRIPT comes behind
 *   the block, then the plain attempt loads it) are bounded by
 *   REDISLOCK_WAIT_RECHECK_US, as for a waiter that attempted first.
 * - Permits already free when the waiter comes (limit 4, 2 held, the
 *   marker alive from earlier contention): a blind BLPOP would block while
 *   one is free. Hence the waiter goes blind only when the last attempt of
 *   this process found the semaphore full for it: refused for a room at
 *   least its own (a heavier weight or smaller limit may be refused where
 *   it fits), or granted the last permit or woken (room: limit - 1); a
 *   grant not woken with permits left, or alone, and a gap in the marker's
 *   life (a release then may have pushed nothing) end that. No age limit
 *   is needed: the argument above holds for as long as the marker lives
 *   without a gap, and a process that stops finding the semaphore full
 *   attempts first again.
 * - A heavier waiter that is woken and refused takes a wake-up a lighter
 *   one could have used: as for waiters that attempted first, the lease
 *   end and REDISLOCK_WAIT_RECHECK_US bound that block. */

/* The entry of the semaphore whose holder key is key on servers, emptied
 * when the slot held another. */
static redislock_sem_seen *sem_slot(const zend_string *key, const redislock_servers *servers)
{
    zend_ulong h = zend_string_hash_val((zend_string *) key);
    redislock_sem_seen *e;

    for (uint32_t i = 0; i < servers->count; i++) {
        h = h * 33 + zend_inline_hash_func(servers->server[i].id, servers->server[i].id_len);
    }
    h = h ? h : 1;
    e = &REDISLOCK_G(sems_seen)[h % REDISLOCK_SEMS_SEEN];
    if (e->hash != h) {
        memset(e, 0, sizeof(*e));
        e->hash = h;
    }
    return e;
}

/* Notes that the marker lives until at least `at` + ms (ms > 0), as an
 * answer to a command sent at `at`, read just now, said. A possible gap
 * since the marker was last known alive (until before now: the server may
 * have read it any time up to now) ends what was known of the semaphore
 * being full (a release in the gap may have pushed nothing). */
static void sem_marked(redislock_sem_seen *e, zend_long ms, uint64_t at)
{
    if (e->marked_until <= redislock_now_us()) {
        e->full = false;
    }
    e->marked_until = MAX(e->marked_until, at + (uint64_t) ms * 1000);
}

void redislock_seen_sem_marked(const zend_string *key, const redislock_servers *servers, zend_long ms, uint64_t at)
{
    if (ms > 0) {
        sem_marked(sem_slot(key, servers), ms, at);
    }
}

void redislock_seen_sem_refused(const zend_string *key, const redislock_servers *servers, zend_long room,
                                zend_long soonest_ms, zend_long marked_ms, uint64_t at)
{
    redislock_sem_seen *e = sem_slot(key, servers);

    if (marked_ms > 0) {
        sem_marked(e, marked_ms, at);
    }
    /* Full only with the marker alive when the script ran (by now at the
     * latest): frees from then on push wake-ups. */
    e->full = e->marked_until > redislock_now_us();
    e->room = room;
    e->lease_end = soonest_ms > 0 ? at + (uint64_t) soonest_ms * 1000 : 0;
}

void redislock_seen_sem_granted(const zend_string *key, const redislock_servers *servers, zend_long limit,
                                zend_long left, bool woken)
{
    redislock_sem_seen *e = sem_slot(key, servers);

    /* No permit left: more than limit - 1 held. A woken grant that left
     * some passed a wake-up on (the marker alive): a waiter of limit less
     * weight up to limit - 1 that fits finds one pending. The earliest
     * lease end known stays: a lease granted since ends later (same ttl). */
    e->full = (left == 0 || woken) && e->marked_until > redislock_now_us();
    e->room = limit - 1;
}

uint64_t redislock_seen_sem_blind_us(const zend_string *key, const redislock_servers *servers, zend_long room,
                                     uint64_t deadline)
{
    redislock_sem_seen *e = sem_slot(key, servers);
    uint64_t slack = (uint64_t) REDISLOCK_BLOCK_SLACK_MS * 1000, now = redislock_now_us(), until, block;

    if (!e->full || room > e->room || !e->lease_end || e->marked_until <= slack) {
        return 0;
    }
    until = MIN(MIN(e->marked_until - slack, e->lease_end), deadline);
    block = MIN(until > now ? until - now : 0, REDISLOCK_WAIT_RECHECK_US);
    return block >= REDISLOCK_BLOCK_MIN_US ? block : 0;
}
/* }}} */
