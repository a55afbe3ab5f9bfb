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
#include "engine/sync.h"
#include "client/route_pin.h"
#include "php_redislock.h"

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

/* {{{ Keepalive (engine/keepalive.h): the lease of a hold renewed in the
 * background while the hold lasts, with the keepalive setting. */

/* The hold was just granted: starts renewing it (a lease of an earlier
 * hold of the lock is stopped). Runs inside the grant's route pin, so that
 * on a Sentinel or Cluster server the renewals go to the node that granted. */
void redislock_hold_keepalive_start(redislock_lock *l);

/* An attempt to take l (exclusive, shared, a promote): sets *result, returns
 * a status; ctx is the caller's, passed through. */
typedef int (*redislock_hold_attempt)(redislock_lock *l, zend_long wait_ms, bool *result, void *ctx);

/* Inline (attempt is a constant at each caller). Runs attempt with the grant and the check of its replication
 * (sync_replicas, named what in its error) on one node, starts the hold's
 * keepalive on that node, and counts a grant once it is reported. */
static zend_always_inline int redislock_hold_grant(redislock_lock *l, redislock_hold_attempt attempt, void *ctx,
                                                   const char *what, zend_long wait_ms, bool *result)
{
    int rc;

    *result = false;
    redislock_route_pin(l->settings.servers);
    rc = attempt(l, wait_ms, result, ctx);
    if (rc == REDISLOCK_OK) {
        rc = redislock_sync_check(l, what, result);
    }
    if (*result) {
        /* The hold's own renewal from now on (after a promote or demote too). */
        redislock_hold_keepalive_start(l);
    }
    redislock_route_pin_end(l->settings.servers);
    if (*result) {
        /* Counted once reported: a grant refused for want of replicas is none. */
        REDISLOCK_G(stats).acquired++;
    }
    return rc;
}

/* Takes up what the renewals found since last asked: the validity of the
 * last renewal, or the hold lost (then not held any more, and no longer
 * renewed); a lock not held any more stops its renewals. Every operation on
 * a hold starts with it. */
void redislock_hold_keepalive_sync(redislock_lock *l);

/* Stops the renewals of the lock's hold (release, destruction, request
 * end); the lease then runs out at its ttl unless released. */
void redislock_hold_keepalive_stop(redislock_lock *l);

/* Adds the renewals of this thread's leases not yet counted to the
 * counters (stats()). */
void redislock_hold_keepalive_count(void);

/* }}} */

#endif /* REDISLOCK_HOLD_H */
