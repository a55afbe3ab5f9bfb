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
#include "engine/keepalive.h"
#include "engine/scripts.h"
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

    redislock_hold_keepalive_stop(l);
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

    redislock_hold_keepalive_sync(l);
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

/* release(), pinned: the renewals stop first, whatever its outcome. */
int redislock_hold_release(redislock_lock *l, bool *result)
{
    redislock_hold_keepalive_stop(l);
    return pinned(l, redislock_lock_release_once, result);
}

/* isAcquired(), pinned. */
int redislock_hold_check(redislock_lock *l, bool *result)
{
    redislock_hold_keepalive_sync(l);
    return pinned(l, redislock_lock_check_once, result);
}

/* forceRelease(), pinned. */
int redislock_hold_force_release(redislock_lock *l, bool *result)
{
    return pinned(l, redislock_lock_force_release_once, result);
}

/* }}} */

/* {{{ Keepalive */

/* Adds what the renewals told to the counters. */
static void keepalive_count(const redislock_keepalive_news *news)
{
    REDISLOCK_G(stats).keepalive_renewals += news->renewals;
    REDISLOCK_G(stats).keepalive_lost += news->losses;
}

/* read_extend.lua's answer: 1 renewed, -2 the share is gone. */
static redislock_keepalive_answer share_judge(long long reply)
{
    return reply == 1 ? REDISLOCK_KEEPALIVE_RENEWED
                      : reply == -2 ? REDISLOCK_KEEPALIVE_GONE : REDISLOCK_KEEPALIVE_UNKNOWN;
}

/* The renewal of l's hold in spec: extend.lua on the lock key for an
 * exclusive hold, read_extend.lua on the lock and readers keys for a share
 * (as engine/shared.c's extend calls it). ttl: the digits of the ttl. */
static void keepalive_script(redislock_lock *l, redislock_keepalive_spec *spec, const char *ttl, size_t ttl_len)
{
    const zend_string *key = REDISLOCK_LKEY(l, LOCK);
    const redislock_script *script = &redislock_script_extend;

    spec->argv[0] = ZSTR_VAL(key);
    spec->lens[0] = ZSTR_LEN(key);
    spec->nkeys = 1;
    if (l->shared) {
        key = REDISLOCK_LKEY(l, READERS);
        spec->argv[1] = ZSTR_VAL(key);
        spec->lens[1] = ZSTR_LEN(key);
        spec->nkeys = 2;
        spec->judge = share_judge;
        script = &redislock_script_read_extend;
    }
    spec->argv[spec->nkeys] = l->token;
    spec->lens[spec->nkeys] = REDISLOCK_TOKEN_LEN;
    spec->argv[spec->nkeys + 1] = ttl;
    spec->lens[spec->nkeys + 1] = ttl_len;
    spec->argc = spec->nkeys + 2;
    if (l->shared) {
        spec->argv[spec->argc] = "0"; /* renew, not ask */
        spec->lens[spec->argc++] = 1;
    }
    spec->sha = script->sha;
    spec->body = script->body;
    spec->body_len = script->len;
}

/* Starts the renewals of l's hold (held, with keepalive on). */
static void keepalive_start(redislock_lock *l)
{
    const redislock_servers *list = l->settings.servers;
    redislock_netopts o = redislock_lock_netopts(l);
    zend_string *key = REDISLOCK_LKEY(l, LOCK);
    redislock_keepalive_spec spec = {
        .count = list->count,
        .quorum = redislock_lock_quorum(l),
        .ttl_ms = (uint64_t) l->settings.ttl,
        .max_hold_ms = (uint64_t) l->settings.max_hold,
        .granted = redislock_now_us(),
        .owner = &REDISLOCK_G(stats),
    };
    char ttl[24];

    keepalive_script(l, &spec, ttl, (size_t) snprintf(ttl, sizeof(ttl), ZEND_LONG_FMT, l->settings.ttl));
    for (uint32_t i = 0; i < list->count; i++) {
        spec.targets[i] = redislock_keepalive_target(&list->server[i], ZSTR_VAL(key), ZSTR_LEN(key),
                                                     (int) o.connect_timeout, (int) o.read_timeout);
    }
    l->keepalive = redislock_keepalive_start(&spec);
}

void redislock_hold_keepalive_start(redislock_lock *l)
{
    redislock_keepalive_news news;

    if (l->keepalive) {
        /* The lease of the hold this grant follows (a renewal by acquire(),
         * a promote, a demote): a loss its last renewal saw is this grant's
         * doing (the hold changed kind under it), not one to count. */
        redislock_keepalive_stop(l->keepalive, &news);
        news.losses = 0;
        keepalive_count(&news);
        l->keepalive = NULL;
    }
    if (l->settings.keepalive && redislock_lock_holding(l)) {
        keepalive_start(l);
    }
}

void redislock_hold_keepalive_sync(redislock_lock *l)
{
    redislock_keepalive_news news;

    if (!l->keepalive) {
        return;
    }
    if (!redislock_lock_holding(l)) {
        redislock_hold_keepalive_stop(l);
        return;
    }
    redislock_keepalive_poll(l->keepalive, &news);
    keepalive_count(&news);
    if (news.lost) {
        /* Gone from the servers: nothing of anyone else's is touched; our
         * token, wherever it may be left, goes with the release. */
        redislock_lock_term_disarm(l);
        l->held = false;
        redislock_hold_keepalive_stop(l);
    } else if (news.renewed_at) {
        l->valid_until = redislock_lock_validity_end(news.renewed_at, l->settings.ttl);
    }
}

void redislock_hold_keepalive_stop(redislock_lock *l)
{
    redislock_keepalive_news news;

    if (!l->keepalive) {
        return;
    }
    redislock_keepalive_stop(l->keepalive, &news);
    keepalive_count(&news);
    l->keepalive = NULL;
}

void redislock_hold_keepalive_count(void)
{
    redislock_keepalive_news news = { 0 };

    redislock_keepalive_collect(&REDISLOCK_G(stats), &news.renewals, &news.losses);
    keepalive_count(&news);
}

/* }}} */
