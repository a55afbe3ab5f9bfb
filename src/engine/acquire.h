/*
 * Taking the lock: attempts, waits through the lock's wait strategy
 * (engine/wait.h), the sync_replicas check (engine/sync.h), and the cleanup
 * of a wait that ran out.
 */
#ifndef REDISLOCK_ACQUIRE_H
#define REDISLOCK_ACQUIRE_H

#include "engine/lock.h"

/* Takes the lock, waiting for it until wait_ms have passed. Returns
 * REDISLOCK_OK with *result true only when a quorum granted it (and its
 * replicas acknowledged it, with sync_replicas) and validity remains;
 * REDISLOCK_ERR when the answer is unknown (the reason in l->err, or an
 * exception was already thrown). */
int redislock_acquire_lock(redislock_lock *l, zend_long wait_ms, bool *result);

/* Frees what the wait strategies keep for the process (module shutdown). */
void redislock_acquire_forget(void);

#endif /* REDISLOCK_ACQUIRE_H */
