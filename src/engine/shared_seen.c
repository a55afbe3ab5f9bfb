/*
 * What this process last found of each lock a share was taken of: free, or
 * taken (by a writer or by other readers). A share of a lock last found
 * free starts with a plain SET NX PX, one last found taken with the read
 * script (engine/shared.c), so that either way it takes one round trip.
 * The hashes of the lock keys found taken sit in a small table of the
 * process, in slots by hash: a key that shares a slot with another only
 * costs a share a round trip more, never a wrong answer.
 */
#include "php_redislock.h"
#include "engine/shared_seen.h"

static zend_ulong *slot_of(const redislock_lock *l, zend_ulong *h)
{
    *h = ZSTR_HASH(REDISLOCK_LKEY(l, LOCK));
    return &REDISLOCK_G(shares_seen)[*h % REDISLOCK_SHARES_SEEN];
}

bool redislock_shared_seen_taken(const redislock_lock *l)
{
    zend_ulong h, *slot = slot_of(l, &h);

    return *slot == h;
}

void redislock_shared_seen(const redislock_lock *l, bool taken)
{
    zend_ulong h, *slot = slot_of(l, &h);

    if (taken) {
        *slot = h;
    } else if (*slot == h) {
        *slot = 0;
    }
}
