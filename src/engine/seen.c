/*
 * What this process last found of each lock a share was taken of: free, or
 * taken (by a writer or by other readers). A share of a lock last found
 * free starts with a plain SET NX PX, one last found taken with the read
 * script (engine/shared.c), so that either way it takes one round trip.
 * A semaphore's holds do the same with its holder key (engine/semaphore.c).
 * The hashes of the keys found taken sit in a small table of the process,
 * in slots by hash: a key that shares a slot with another only costs an
 * attempt a round trip more, never a wrong answer.
 */
#include "php_redislock.h"
#include "engine/seen.h"

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
