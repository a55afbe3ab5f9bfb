/*
 * Shared (read) holds of a lock: any number of readers at once, each with
 * its own token and lease, excluded by an exclusive hold and excluding it.
 * The exclusive path is untouched (SET key token NX PX ttl): readers mark
 * the lock key itself with a value no token can equal, expiring with the
 * latest reader's lease, and keep each reader's lease in a sorted set in
 * the key's slot (lua/read_acquire.lua). A writer that waits marks the key
 * so that no new share is granted meanwhile; the last reader out wakes it
 * through the writers' wake-up list, and a writer's release wakes the
 * readers it held back, each reader let in waking the next.
 *
 * One server, Sentinel or Cluster: the caller refuses a quorum list and
 * fair mode. Each returns REDISLOCK_OK with the answer in *result, or
 * REDISLOCK_ERR when the answer is unknown (the reason in l->err).
 */
#ifndef REDISLOCK_SHARED_H
#define REDISLOCK_SHARED_H

#include "engine/lock.h"

/* Takes the lock shared, waiting until wait_ms have passed (woken by the
 * release that frees it). On our own exclusive hold: demotes it; on our own
 * share: renews it. */
int redislock_shared_acquire(redislock_lock *l, zend_long wait_ms, bool *result);

/* Turns our share into an exclusive hold once it is the only one, waiting
 * as a writer until wait_ms have passed; when the wait runs out the share
 * stays as it was and holds back nobody. A share found gone: an acquire. */
int redislock_shared_promote(redislock_lock *l, zend_long wait_ms, bool *result);

/* The operations of engine/lock.h on a share (l->shared): release, extend
 * to ttl ms, check. */
int redislock_shared_release_once(redislock_lock *l, bool *result);
int redislock_shared_extend_once(redislock_lock *l, zend_long ttl, bool *result, const char *what);
int redislock_shared_check_once(redislock_lock *l, bool *result);

/* Keeps the release of our share as a leftover (see engine/leftovers.h). */
void redislock_shared_keep_leftovers(redislock_lock *l, uint32_t mask, redislock_leftover_group *group);

/* Describes the release of a share for SIGTERM (see
 * redislock_lock_term_describe(): read_release.lua's call, its keys and our
 * token); false when a key is not built (redislock_shared_term_keys()). */
bool redislock_shared_term_describe(redislock_term_release *r, const redislock_lock *l);

/* Builds the keys the release of a share needs. */
void redislock_shared_term_keys(redislock_lock *l);

/* Removes our share from the server, or keeps it as a leftover when the
 * answer does not come (as redislock_lock_cleanup() does for an exclusive
 * hold: a grant that is not reported, sync_replicas refused). Nothing is
 * held afterwards; no counter moves. */
void redislock_shared_cleanup(redislock_lock *l);

#endif /* REDISLOCK_SHARED_H */
