/*
 * What this process last found of a lock a share was taken of, or of a
 * semaphore (see engine/seen.c): which first attempt a share, or a
 * hold of a semaphore, starts with.
 */
#ifndef REDISLOCK_SEEN_H
#define REDISLOCK_SEEN_H

#include "php.h"
#include "config/servers.h"

/* Whether the key (a lock's, a semaphore's holder key) was last found
 * taken by this process. */
bool redislock_seen_taken(const zend_string *key);

/* Records what an attempt found of the key: taken, or free. */
void redislock_seen(const zend_string *key, bool taken);

/* {{{ What this process knows of a semaphore's waiters marker (engine/
 * semaphore.c): each names the semaphore by its holder key and its servers,
 * is called as soon as the answer is read, and dates what it notes by `at`,
 * when the answer's command was sent (monotonic us). */

/* The waiters marker lives ms (> 0) from at, at least. */
void redislock_seen_sem_marked(const zend_string *key, const redislock_servers *servers, zend_long ms, uint64_t at);

/* An attempt was refused: the permits held were more than room (its
 * object's limit less its weight); the earliest lease ends soonest_ms from
 * at (0: not known); the marker lives marked_ms from at (<= 0: not told). */
void redislock_seen_sem_refused(const zend_string *key, const redislock_servers *servers, zend_long room,
                                zend_long soonest_ms, zend_long marked_ms, uint64_t at);

/* An attempt (not a renewal) was granted and left `left` permits free for
 * limit (a hold granted alone: pass -1); woken: it came behind a BLPOP (the
 * script then passes a wake-up on while permits are left). */
void redislock_seen_sem_granted(const zend_string *key, const redislock_servers *servers, zend_long limit,
                                zend_long left, bool woken);

/* How long (us) a waiter whose limit less weight is room, waiting until
 * deadline (monotonic us), may block on the wake-up list before any attempt
 * (0: it attempts first): when the last attempt seen found the semaphore
 * full for it, or its free permits announced, with the marker alive since, for the rest of the wait, no
 * longer than the earliest lease end known (one must be known), the
 * marker's end less REDISLOCK_BLOCK_SLACK_MS, nor REDISLOCK_WAIT_RECHECK_US;
 * 0 when that is shorter than REDISLOCK_BLOCK_MIN_US. */
uint64_t redislock_seen_sem_blind_us(const zend_string *key, const redislock_servers *servers, zend_long room,
                                     uint64_t deadline);
/* }}} */

#endif /* REDISLOCK_SEEN_H */
