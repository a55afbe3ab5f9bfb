/*
 * sync_replicas: an acquire or extend counts only once that many replicas
 * of each server acknowledged it. After the grant, each server of the lock
 * gets lua/sync_touch.lua (our token still there? then the key is written
 * again as it is) and "WAIT <n> <ms>" in one write, on the node that took
 * the grant: through Sentinel the operation is pinned to it
 * (redislock_route_pin()), so a failover found meanwhile does not send the
 * pair elsewhere; on a cluster the pair goes where the key is, WAIT with the
 * script before it. A server
 * counts when the script found our token and wrote it again, and WAIT then
 * said n replicas have every write of that connection so far: so the key
 * as it is now, even when the connection that took the grant was closed
 * and another opened since (a WAIT on a connection that wrote nothing
 * answers at once). Anything else refuses: our token not there (the node is
 * not where the grant was, or lost it), an error (a replica now: READONLY,
 * WAIT refused), the node turned the pair away.
 * When fewer than a quorum of the servers count within the time, the hold is
 * released again and the caller gets a ConnectionException saying so.
 *
 * What it narrows: a failover (Sentinel, Cluster) promotes a replica, which
 * has the grant once it acknowledged it. What it does not do: WAIT is no
 * consensus. A replica that acknowledged can still lose the write (it
 * restarts without persistence before it is promoted), a replica that did
 * not acknowledge can still be promoted, and a grant the old master took
 * after the new one was promoted is reported as failed only because its
 * replicas are gone (this is the window sync_replicas closes).
 */
#include "php_redislock.h"
#include "engine/sync.h"
#include "engine/lock.h"
#include "engine/round.h"
#include "client/route_pin.h"
#include "client/route.h"
#include "base/clock.h"
#include "base/resp.h"

#include <string.h>

/* Whether the pair cmd (the touch script, then WAIT) says n replicas have
 * the grant: else why not, in why. */
static bool acknowledged(const redislock_cmd *cmd, zend_long n, char *why, size_t len)
{
    const redisReply *touch = redislock_cmd_reply(cmd, 0), *wait = cmd->reply;

    if (cmd->status != REDISLOCK_CMD_OK && cmd->status != REDISLOCK_CMD_ERROR) {
        snprintf(why, len, "%s", cmd->errstr);
        return false;
    }
    if (touch && touch->type == REDIS_REPLY_INTEGER && touch->integer == 0) {
        snprintf(why, len, "the lock was not found on %s where it was granted", cmd->srv->label);
        return false;
    }
    if (!touch || touch->type != REDIS_REPLY_INTEGER || touch->integer != 1) {
        snprintf(why, len, "%s did not take the check as a master does", cmd->srv->label);
        return false;
    }
    if (!wait || wait->type != REDIS_REPLY_INTEGER) {
        snprintf(why, len, "%s did not answer WAIT as a master does", cmd->srv->label);
        return false;
    }
    return wait->integer >= n;
}

/* Sends the pair to every server of the lock. */
static void send_wait(redislock_lock *l, redislock_cmd *cmds, smart_str *buf, zend_long wait_ms)
{
    const redislock_servers *list = l->settings.servers;
    zend_string *key = redislock_keys_get(&l->keys, REDISLOCK_KEY_LOCK);
    char nbuf[24], mbuf[24];
    /* By EVAL: the pair is one write, with no NOSCRIPT to recover from. */
    zend_string *readers = redislock_keys_get(&l->keys, REDISLOCK_KEY_READERS);
    const char *touch[] = { "EVAL", redislock_script_sync_touch.body, "2", ZSTR_VAL(key), ZSTR_VAL(readers),
                            l->token };
    size_t touch_lens[] = { 4, redislock_script_sync_touch.len, 1, ZSTR_LEN(key), ZSTR_LEN(readers),
                            REDISLOCK_TOKEN_LEN };
    const char *wait[] = { "WAIT", nbuf, mbuf };
    size_t wait_lens[] = { 4, (size_t) snprintf(nbuf, sizeof(nbuf), ZEND_LONG_FMT, l->settings.sync_replicas),
                           (size_t) snprintf(mbuf, sizeof(mbuf), ZEND_LONG_FMT, wait_ms) };
    redislock_netopts o = redislock_lock_netopts(l);

    redislock_resp_encode(buf, 6, touch, touch_lens);
    redislock_resp_encode(buf, 3, wait, wait_lens);
    memset(cmds, 0, sizeof(redislock_cmd) * list->count);
    for (uint32_t i = 0; i < list->count; i++) {
        cmds[i].srv = &list->server[i];
        cmds[i].buf = ZSTR_VAL(buf->s);
        cmds[i].len = ZSTR_LEN(buf->s);
        cmds[i].count = 2;
        cmds[i].idx = i;
    }
    redislock_exec(cmds, list->count, &o);
}

/* Waits for the replicas of a quorum of the servers to have the grant. */
int redislock_sync_check(redislock_lock *l, const char *what, bool *result)
{
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    smart_str buf = { 0 };
    uint32_t count = l->settings.servers->count, acked = 0;
    zend_long wait_ms = MAX(1, redislock_lock_netopts(l).read_timeout / 2);
    char why[REDISLOCK_ERRLEN] = "";

    if (l->settings.sync_replicas == 0 || !*result) {
        return REDISLOCK_OK;
    }
    send_wait(l, cmds, &buf, wait_ms);
    for (uint32_t i = 0; i < count; i++) {
        char reason[REDISLOCK_ERRLEN] = "";
        if (acknowledged(&cmds[i], l->settings.sync_replicas, reason, sizeof(reason))) {
            acked |= (uint32_t) 1 << i;
            continue;
        }
        /* A master without its replicas: maybe one a failover left behind. */
        redislock_route_forget(&l->settings.servers->server[i]);
        if (!why[0] && reason[0]) {
            snprintf(why, sizeof(why), ": %s", reason);
        }
    }
    redislock_cmd_dtor(cmds, count);
    smart_str_free(&buf);
    if ((uint32_t) __builtin_popcount(acked) >= redislock_lock_quorum(l)) {
        return REDISLOCK_OK;
    }
    /* Not known to survive a failover: not a grant. Our token goes wherever
     * it may sit (a leftover where the answer does not come), and the hold
     * is gone whatever the release says: it was never reported. */
    *result = false;
    redislock_lock_cleanup(l, redislock_lock_all_servers(l), redislock_lock_op_deadline(l));
    redislock_error_set(&l->err, REDISLOCK_E_CONNECTION,
                        "%s: fewer than " ZEND_LONG_FMT " replica(s) acknowledged it within " ZEND_LONG_FMT
                        " ms on a quorum of the servers, so the hold was released%s",
                        what, l->settings.sync_replicas, wait_ms, why);
    return REDISLOCK_ERR;
}
