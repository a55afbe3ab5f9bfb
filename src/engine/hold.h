/*
 * What acts on a hold: release, extend (with the sync_replicas check),
 * isAcquired, forceRelease, each on one node of a Sentinel or Cluster
 * server for all its commands; a hold taken up from its token, and giving
 * up a token without waiting. The scripts they run are engine/lock.h's. Each returns REDISLOCK_OK with the answer in
 * *result, or REDISLOCK_ERR when the answer is unknown (servers
 * unreachable, timed out or replying with errors so that no quorum could
 * answer): the reason is then in l->err, or an exception was already
 * thrown (EG(exception)). Taking the lock is engine/acquire.h.
 */
#ifndef REDISLOCK_HOLD_H
#define REDISLOCK_HOLD_H

#include "engine/lock.h"

/* Deletes our token everywhere; *result tells whether a quorum still held it. */
int redislock_hold_release(redislock_lock *l, bool *result);

/* Resets the lease to ttl ms on every server that still has our token, then
 * waits for sync_replicas replicas (engine/sync.h). */
int redislock_hold_extend(redislock_lock *l, zend_long ttl, bool *result);

/* Asks the servers whether a quorum still has our token. */
int redislock_hold_check(redislock_lock *l, bool *result);

/* Deletes the lock's key whoever holds it, waking its waiters as a release
 * does; *result tells whether a key was deleted. */
int redislock_hold_force_release(redislock_lock *l, bool *result);

/* Takes up a hold made earlier with token (RedisLock::restore()): held,
 * with no validity known until extend() or check() dates it. */
void redislock_hold_adopt(redislock_lock *l, const char *token);

/* Gives up the lock's token without waiting for an answer: its release
 * goes out later as a leftover on every server (see engine/leftovers.h),
 * and with counted set, counts as an auto-release once it deleted the token
 * on a quorum. */
void redislock_hold_abandon(redislock_lock *l, bool counted);

#endif /* REDISLOCK_HOLD_H */
