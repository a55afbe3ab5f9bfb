/*
 * What this process last found of a lock a share was taken of, or of a
 * semaphore (see engine/seen.c): which first attempt a share, or a
 * hold of a semaphore, starts with.
 */
#ifndef REDISLOCK_SEEN_H
#define REDISLOCK_SEEN_H

#include "php.h"

/* Whether the key (a lock's, a semaphore's holder key) was last found
 * taken by this process. */
bool redislock_seen_taken(const zend_string *key);

/* Records what an attempt found of the key: taken, or free. */
void redislock_seen(const zend_string *key, bool taken);

#endif /* REDISLOCK_SEEN_H */
