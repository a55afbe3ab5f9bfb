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
#include "engine/round.h"
#include "engine/scripts.h"
#include "client/topology.h"

static const redislock_key_kind lock_key = REDISLOCK_KEY_LOCK;

/* The quorum's verdict on a round, into *verdict; the commands are done
 * with. REDISLOCK_ERR (the reason in l->err) when it is unknown. */
static int decide(redislock_lock *l, redislock_cmd *cmds, const redislock_tally *t, const char *what,
                  redislock_verdict *verdict)
{
    *verdict = redislock_tally_verdict(t, redislock_lock_quorum(l));
    if (*verdict == REDISLOCK_VERDICT_UNKNOWN) {
        redislock_lock_describe_failure(l, cmds, t, what);
    }
    redislock_cmds_dtor(cmds, l->settings.servers->count);
    return *verdict == REDISLOCK_VERDICT_UNKNOWN ? REDISLOCK_ERR : REDISLOCK_OK;
}

/* Gives up the token: leftovers on every server. */
void redislock_hold_abandon(redislock_lock *l, bool counted)
{
    redislock_leftover_group *group;

    if (!redislock_lock_owned(l)) {
        return;
    }
    group = counted ? redislock_leftover_group_new(redislock_lock_quorum(l)) : NULL;
    redislock_lock_keep_leftovers(l, redislock_lock_all_servers(l), group);
    l->has_token = false;
    l->held = false;
}

/* Deletes our token on every server (see redislock_hold_release()). */
static int release_now(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_verdict verdict;

    *result = false;
    if (!redislock_lock_owned(l)) {
        return REDISLOCK_OK;
    }
    redislock_lock_release_all(l, cmds);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    if (decide(l, cmds, &t, "release", &verdict) != REDISLOCK_OK) {
        /* Not known to be released: the hold stays, so that release() can
         * be called again, and the end of the request tries again. */
        return REDISLOCK_ERR;
    }
    /* Decided; a server that did not answer may still have our token. */
    redislock_lock_keep_leftovers(l, l->placed & ~t.definite, NULL);
    l->has_token = false;
    l->held = false;
    *result = verdict == REDISLOCK_VERDICT_YES;
    if (*result) {
        REDISLOCK_G(stats).released++;
    } else {
        REDISLOCK_G(stats).released_lost++;
    }
    return REDISLOCK_OK;
}

/* Renews the lease; what names the operation in an error message. */
int redislock_hold_renew(redislock_lock *l, zend_long ttl, bool *result, const char *what)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_verdict verdict;
    redislock_call c;
    uint64_t start, valid_until;

    *result = false;
    if (!redislock_lock_holding(l)) {
        return REDISLOCK_OK;
    }
    redislock_lock_call_init(&c, l, &lock_key, 1, false);
    redislock_call_arg(&c, l->token, REDISLOCK_TOKEN_LEN);
    redislock_call_long(&c, ttl);
    start = redislock_now_us();
    redislock_lock_call_all(l, &redislock_script_extend, cmds, &c, redislock_vote_integer);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    valid_until = redislock_lock_validity_end(start, ttl);
    if (decide(l, cmds, &t, what, &verdict) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    if (verdict == REDISLOCK_VERDICT_YES && redislock_now_us() < valid_until) {
        l->valid_until = valid_until;
        REDISLOCK_G(stats).extended++;
        *result = true;
        return REDISLOCK_OK;
    }
    /* Lost: what may be left of our token (on servers that did not say it
     * was gone) goes too. */
    REDISLOCK_G(stats).extend_failed++;
    l->held = false;
    if (redislock_lock_all_servers(l) & ~(t.definite & ~t.mayhold)) {
        redislock_lock_cleanup(l, redislock_lock_all_servers(l) & ~(t.definite & ~t.mayhold),
                               redislock_lock_op_deadline(l));
    }
    return REDISLOCK_OK;
}

/* Renews the lease, then checks its replication, on one node. */
int redislock_hold_extend(redislock_lock *l, zend_long ttl, bool *result)
{
    bool renewed;
    int rc;

    redislock_route_pin(l->settings.servers);
    rc = redislock_hold_renew(l, ttl, result, "extend");
    renewed = *result;
    if (rc == REDISLOCK_OK) {
        rc = redislock_sync_check(l, "extend", result);
    }
    redislock_route_unpin(l->settings.servers);
    if (renewed && !*result) {
        /* Renewed on the servers, then refused for want of replicas: not
         * counted as renewed after all. */
        REDISLOCK_G(stats).extended--;
        REDISLOCK_G(stats).extend_failed++;
    }
    return rc;
}

/* Counts check.lua's answer: the pttl of our key (yes), or -2 (no). The
 * shortest pttl among the yes answers goes to *pttl. */
static int vote_check(const redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_INTEGER && cmd->reply->integer >= -2) {
        return cmd->reply->integer != -2;
    }
    return -1;
}

/* Counts check.lua's answer; the shortest pttl goes to *pttl. */
static void tally_check(redislock_tally *t, redislock_cmd *cmd, zend_long ttl, zend_long *pttl)
{
    int vote = vote_check(cmd);

    if (vote == 1) {
        /* No expiry at all (-1) proves no more than our own ttl. */
        *pttl = MIN(*pttl, cmd->reply->integer < 0 ? ttl : (zend_long) cmd->reply->integer);
    }
    redislock_tally_vote(t, cmd, vote);
}

/* Asks every server for our token's pttl; dates the validity from it. */
static int check_now(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_verdict verdict;
    zend_long pttl = ZEND_LONG_MAX;
    redislock_call c;
    uint64_t start;

    *result = false;
    if (!redislock_lock_holding(l)) {
        return REDISLOCK_OK;
    }
    redislock_lock_call_init(&c, l, &lock_key, 1, false);
    redislock_call_arg(&c, l->token, REDISLOCK_TOKEN_LEN);
    start = redislock_now_us();
    redislock_lock_call_all(l, &redislock_script_check, cmds, &c, vote_check);
    for (uint32_t i = 0; i < n; i++) {
        tally_check(&t, &cmds[i], l->settings.ttl, &pttl);
    }
    if (decide(l, cmds, &t, "isAcquired", &verdict) != REDISLOCK_OK) {
        return REDISLOCK_ERR;
    }
    *result = verdict == REDISLOCK_VERDICT_YES;
    if (!*result) {
        l->held = false;
        return REDISLOCK_OK;
    }
    /* Dated from the send: the lease ends no sooner than that, by our clock. */
    l->valid_until = redislock_lock_validity_end(start, pttl);
    return REDISLOCK_OK;
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
    l->pid = redislock_pid();
    l->valid_until = 0;
    l->fence = 0;
}

/* The release script without a token, on every server. */
static int force_release_now(redislock_lock *l, bool *result)
{
    uint32_t n = l->settings.servers->count;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_tally t = { 0 };
    redislock_key_kind keys[] = { REDISLOCK_KEY_LOCK, l->settings.fair ? REDISLOCK_KEY_QUEUE : REDISLOCK_KEY_WAIT,
                                  REDISLOCK_KEY_WAKE };
    redislock_call c;

    redislock_lock_call_init(&c, l, keys, 3, false);
    /* The release script, forced: no token to match. */
    redislock_call_arg(&c, "", 0);
    redislock_call_bool(&c, true);
    *result = false;
    redislock_lock_call_all(l, &redislock_script_release, cmds, &c, NULL);
    for (uint32_t i = 0; i < n; i++) {
        redislock_tally_integer(&t, &cmds[i]);
    }
    if (t.yes + t.no < redislock_lock_quorum(l)) {
        /* Too few answers to say the lock is gone. */
        redislock_lock_describe_failure(l, cmds, &t, "forceRelease");
        redislock_cmds_dtor(cmds, n);
        return REDISLOCK_ERR;
    }
    redislock_cmds_dtor(cmds, n);
    *result = t.yes > 0;
    return REDISLOCK_OK;
}

/* {{{ The operations, each pinned to one node of a Sentinel or Cluster
 * server for all its commands (redislock_route_pin()) */

/* Runs op on l with every command of it to one node (see above). */
static int pinned(redislock_lock *l, int (*op)(redislock_lock *, bool *), bool *result)
{
    int rc;

    redislock_route_pin(l->settings.servers);
    rc = op(l, result);
    redislock_route_unpin(l->settings.servers);
    return rc;
}

/* release(), pinned. */
int redislock_hold_release(redislock_lock *l, bool *result)
{
    return pinned(l, release_now, result);
}

/* isAcquired(), pinned. */
int redislock_hold_check(redislock_lock *l, bool *result)
{
    return pinned(l, check_now, result);
}

/* forceRelease(), pinned. */
int redislock_hold_force_release(redislock_lock *l, bool *result)
{
    return pinned(l, force_release_now, result);
}

/* }}} */
