/*
 * What acts on a hold once taken (see engine/hold.h): release, extend,
 * isAcquired, a hold restored from its token, forceRelease, and giving up a
 * token whose fate is unknown. Each runs on one node of a Sentinel or
 * Cluster server for all its commands (redislock_route_pin()).
 */
#include "php_redislock.h"
#include "engine/hold.h"
#include "engine/lock.h"
#include "engine/sync.h"
#include "engine/leftovers.h"
#include "client/route_pin.h"
#include "base/clock.h"
#include "base/resp.h"

/* A restored hold (redislock_hold_adopt()) whose first operation found no
 * exclusive hold of its token: held again as a share, for the operation to
 * ask about that. true when so (the caller runs it again). */
static bool retry_as_share(redislock_lock *l, int rc, bool result)
{
    if (!l->maybe_shared || rc != REDISLOCK_OK) {
        return false;
    }
    l->maybe_shared = false;
    if (result) {
        return false;
    }
    l->shared = true;
    l->held = true;
    l->has_token = true;
    l->pid = redislock_process_pid();
    return true;
}

/* Gives up the token: leftovers on every server. */
void redislock_hold_abandon(redislock_lock *l, bool counted)
{
    redislock_leftover_group *group;

    if (!redislock_lock_owned(l)) {
        return;
    }
    group = counted ? redislock_leftovers_group_new(redislock_lock_quorum(l)) : NULL;
    redislock_lock_keep_leftovers(l, redislock_lock_all_servers(l), group);
    redislock_lock_term_disarm(l);
    l->has_token = false;
    l->held = false;
}

/* Renews the lease, then checks its replication, on one node. */
int redislock_hold_extend(redislock_lock *l, zend_long ttl, bool *result)
{
    bool renewed;
    int rc;

    redislock_route_pin(l->settings.servers);
    rc = redislock_lock_extend_once(l, ttl, result, "extend");
    if (retry_as_share(l, rc, *result)) {
        rc = redislock_lock_extend_once(l, ttl, result, "extend");
    }
    renewed = *result;
    if (rc == REDISLOCK_OK) {
        rc = redislock_sync_check(l, "extend", result);
    }
    redislock_route_pin_end(l->settings.servers);
    if (renewed && !*result) {
        /* Renewed on the servers, then refused for want of replicas: not
         * counted as renewed after all. */
        REDISLOCK_G(stats).extended--;
        REDISLOCK_G(stats).extend_failed++;
    }
    return rc;
}

/* Takes up the hold of token, from elsewhere. */
void redislock_hold_adopt(redislock_lock *l, const char *token)
{
    memcpy(l->token, token, REDISLOCK_TOKEN_LEN);
    l->token[REDISLOCK_TOKEN_LEN] = '\0';
    l->has_token = true;
    l->placed = redislock_lock_all_servers(l);
    l->fair_slot = -1;
    l->held = true;
    l->pid = redislock_process_pid();
    l->valid_until = 0;
    l->fence = 0;
    l->shared = false;
    /* The token may be a share's: the first operation that finds no
     * exclusive hold of it asks about a share (one server only). */
    l->maybe_shared = l->settings.servers->count == 1 && !l->settings.fair;
}

/* {{{ The operations, each pinned to one node of a Sentinel or Cluster
 * server for all its commands (redislock_route_pin()) */

/* Runs op on l with every command of it to one node (see above). */
static int pinned(redislock_lock *l, int (*op)(redislock_lock *, bool *), bool *result)
{
    int rc;

    redislock_route_pin(l->settings.servers);
    rc = op(l, result);
    if (retry_as_share(l, rc, *result)) {
        rc = op(l, result);
    }
    redislock_route_pin_end(l->settings.servers);
    return rc;
}

/* release(), pinned. */
int redislock_hold_release(redislock_lock *l, bool *result)
{
    return pinned(l, redislock_lock_release_once, result);
}

/* isAcquired(), pinned. */
int redislock_hold_check(redislock_lock *l, bool *result)
{
    return pinned(l, redislock_lock_check_once, result);
}

/* forceRelease(), pinned. */
int redislock_hold_force_release(redislock_lock *l, bool *result)
{
    return pinned(l, redislock_lock_force_release_once, result);
}

/* }}} */
