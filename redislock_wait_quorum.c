/*
 * Waiting on a quorum (Redlock over several servers): woken by releases.
 *
 * The attempts are those of waiting on one server (redislock_wait_wakeup.c:
 * a plain SET NX PX first, then the acquire script, which marks the lock as
 * waited for on every server, so that each server's release script pushes a
 * wake-up). Between attempts the waiter blocks in BLPOP on the wake-up list
 * of every server at once, and tries again as soon as a majority of them
 * woke it (a release reaches every server) or the block ended: no polling,
 * no random sleeps. The BLPOPs still blocked then are closed, so that they
 * cannot take a later wake-up meant for another waiter. When a majority of
 * the servers refuses BLPOP, the rest of the wait is backoff.
 */
#include "php_redislock.h"
#include "redislock_wait.h"

/* A BLPOP's answer: popped a wake-up (1), timed out (0), failed (-1). */
static int vote_woken(const redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK) {
        return cmd->reply->type == REDIS_REPLY_ARRAY ? 1 : cmd->reply->type == REDIS_REPLY_NIL ? 0 : -1;
    }
    return -1;
}

static redislock_waited quorum_wait(redislock_lock *l, redislock_wait_state *w, bool *result)
{
    uint32_t n, woken = 0, refused = 0;
    redislock_cmd cmds[REDISLOCK_MAX_SERVERS];
    redislock_netopts o = redislock_lock_netopts(l);
    redislock_enough e;
    redislock_waited slept;
    uint64_t block;
    char secs[32];
    const char *argv[3] = { "BLPOP", ZSTR_VAL(REDISLOCK_LKEY(l, WAKE)), secs };
    size_t lens[3] = { 5, ZSTR_LEN(REDISLOCK_LKEY(l, WAKE)), 0 };

    *result = false;
    if (!redislock_wait_may_block(w, &block, &slept)) {
        return slept;
    }
    lens[2] = (size_t) snprintf(secs, sizeof(secs), "%.3f", (double) block / 1e6);
    /* The servers answer when woken or when their own timeout ends, which
     * they notice on their next timer tick. */
    o.read_timeout += (zend_long) (block / 1000) + REDISLOCK_BLOCK_SLACK_MS;
    o.blocking = true;
    redislock_lock_decide_early(l, &o, &e, cmds, vote_woken);
    n = redislock_round_send(l->settings.servers, redislock_lock_all_servers(l), &o, cmds, 3, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        woken += vote_woken(&cmds[i]) == 1;
        refused += cmds[i].status == REDISLOCK_CMD_ERROR;
    }
    redislock_cmds_dtor(cmds, n);
    if (woken > 0) {
        REDISLOCK_G(stats).waits++;
    }
    if (refused >= redislock_lock_quorum(l)) {
        w->blocking = false;
    }
    return REDISLOCK_WAITED;
}

static void quorum_give_up(redislock_lock *l, redislock_wait_state *w)
{
}

const redislock_wait_ops redislock_wait_quorum = {
    "quorum", redislock_wait_wakeup_attempt, quorum_wait, quorum_give_up,
};
