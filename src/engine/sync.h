/*
 * sync_replicas: a grant or a renewal counts only once that many replicas
 * of a quorum of the lock's servers acknowledged it (see sync.c).
 */
#ifndef REDISLOCK_SYNC_H
#define REDISLOCK_SYNC_H

#include "engine/lock.h"

/* After a grant or a renewal (*result true; what names the operation),
 * waits for the replicas to acknowledge it; when too few did, releases the
 * hold, sets *result false and l->err, and returns REDISLOCK_ERR. Does
 * nothing without sync_replicas or when *result is false. */
int redislock_sync_check(redislock_lock *l, const char *what, bool *result);

#endif /* REDISLOCK_SYNC_H */
