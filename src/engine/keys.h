/*
 * Keys built in one place: the lock's key (prefix + name) and the
 * bookkeeping keys beside it, each built on first use. Every key a script
 * touches comes from here and is passed in KEYS. On a Redis Cluster
 * (tagged) every bookkeeping key carries a hash tag that puts it in the lock
 * key's slot, so that one script can touch them all.
 */
#ifndef REDISLOCK_KEYS_H
#define REDISLOCK_KEYS_H

#include "php.h"

#include "config/config.h"

#define REDISLOCK_WAKE_SLOTS 8 /* fair mode's wake-up lists (lua/acquire_fair.lua counts them too) */

/* Most bytes a key adds to prefix + name: a hash tag and the longest
 * suffix (this file's, a rate limiter's). */
#define REDISLOCK_KEY_EXTRA 64

/* The longest name that, with a prefix of prefix_len bytes, makes keys
 * Redis takes (REDISLOCK_BULK_MAX bytes a key, REDISLOCK_KEY_EXTRA of them
 * the extension's): checked before the name is copied anywhere. */
size_t redislock_keys_name_max(size_t prefix_len);

typedef enum redislock_key_kind {
    REDISLOCK_KEY_LOCK = 0,  /* prefix + name: holds the owner token */
    REDISLOCK_KEY_FENCE,     /* the fence counter */
    REDISLOCK_KEY_WAIT,      /* marks that someone waits for a release */
    REDISLOCK_KEY_WAKE,      /* a release's wake-up, for one waiter to pop */
    REDISLOCK_KEY_QUEUE,     /* fair mode: the waiters, in arrival order */
    REDISLOCK_KEY_QUEUE_EXP, /* fair mode: when each place in the queue expires */
    REDISLOCK_KEY_HANDOFF,   /* fair mode: the waiter a release handed the lock to, until it claims it */
    REDISLOCK_KEY_TICKET,    /* fair mode: numbers the waiters as they join, to share out the wake-up lists */
    REDISLOCK_KEY_READERS,   /* shared holds: each reader's token and the end of its lease (a sorted set) */
    REDISLOCK_KEY_RWAIT,     /* shared holds: marks that readers wait (held back by a writer) */
    REDISLOCK_KEY_RWAKE,     /* shared holds: the readers' wake-ups */
    REDISLOCK_KEY_PERMITS,   /* a semaphore: the permits its weighted holds take beyond one each */
    REDISLOCK_KEY_HOLDER,    /* a semaphore: its one hold alone ("<token>:<weight>"), or '+' (the holds
                                are in the sorted set) */
    REDISLOCK_KEY_WAKE_SLOT, /* fair mode: the first of REDISLOCK_WAKE_SLOTS wake-up lists, waiters taking
                                turns among them (the rest follow in the enum) */
    REDISLOCK_KEY_COUNT = REDISLOCK_KEY_WAKE_SLOT + REDISLOCK_WAKE_SLOTS
} redislock_key_kind;

typedef struct redislock_keys {
    zend_string *k[REDISLOCK_KEY_COUNT]; /* NULL until first used, the lock's own key aside */
    bool tagged;                         /* hash-tag the bookkeeping keys to the lock key's slot */
    uint32_t written;                    /* kinds redislock_keys_name() wrote out once without building */
} redislock_keys;

/* Sets up the keys of the lock prefix + name (binary-safe). */
void redislock_keys_init(redislock_keys *keys, const zend_string *prefix, const zend_string *name, bool tagged);

/* The key of that kind, built now if it was not yet. Owned by keys. */
zend_string *redislock_keys_get(redislock_keys *keys, redislock_key_kind kind);

/* The name of the key of that kind, for one command: the key already built;
 * the first time, when the lock key is short and untagged, written into buf
 * (of size bytes) without building it (an object used once spares the
 * allocation); otherwise built now, for the uses to come. *len gets its
 * length. */
const char *redislock_keys_name(redislock_keys *keys, redislock_key_kind kind, char *buf, size_t size, size_t *len);

/* What follows the lock key in the key of each kind, untagged (tagged,
 * with a hash tag before: redislock_keys_get()). */
typedef struct redislock_keys_suffix {
    const char *s;
    size_t len;
} redislock_keys_suffix;
extern const redislock_keys_suffix redislock_keys_suffixes[REDISLOCK_KEY_COUNT];

void redislock_keys_free(redislock_keys *keys);

#endif /* REDISLOCK_KEYS_H */
