/*
 * What this process last found of a lock a share was taken of (see
 * engine/shared_seen.c): which first attempt a share starts with.
 */
#ifndef REDISLOCK_SHARED_SEEN_H
#define REDISLOCK_SHARED_SEEN_H

#include "engine/lock.h"

/* Whether a share of l was last found taken by this process. */
bool redislock_shared_seen_taken(const redislock_lock *l);

/* Records what a share of l found: the lock taken, or free. */
void redislock_shared_seen(const redislock_lock *l, bool taken);

#endif /* REDISLOCK_SHARED_SEEN_H */
