/*
 * Counting a round's answers (tally.h).
 */
#include "engine/tally.h"
#include "client/reply.h"

#include <stdio.h>

#define SERVER_BIT(cmd) ((uint32_t) 1 << (cmd)->idx)

void redislock_tally_failure(redislock_tally *t, redislock_cmd *cmd)
{
    if (cmd->status != REDISLOCK_CMD_CONNECT) {
        t->mayhold |= SERVER_BIT(cmd);
    }
    if (cmd->status == REDISLOCK_CMD_OK || cmd->status == REDISLOCK_CMD_ERROR) {
        t->replied |= SERVER_BIT(cmd);
    }
    if (cmd->status == REDISLOCK_CMD_OK) {
        snprintf(cmd->errstr, sizeof(cmd->errstr), "unexpected reply from %s", cmd->srv->label);
        cmd->status = REDISLOCK_CMD_ERROR;
    }
    t->failed++;
}

void redislock_tally_yes(redislock_tally *t, const redislock_cmd *cmd)
{
    t->yes++;
    t->mayhold |= SERVER_BIT(cmd);
    t->definite |= SERVER_BIT(cmd);
    t->replied |= SERVER_BIT(cmd);
}

void redislock_tally_no(redislock_tally *t, const redislock_cmd *cmd)
{
    t->no++;
    t->definite |= SERVER_BIT(cmd);
    t->replied |= SERVER_BIT(cmd);
}

int redislock_tally_vote_integer(const redislock_cmd *cmd)
{
    if (cmd->status == REDISLOCK_CMD_OK && cmd->reply->type == REDIS_REPLY_INTEGER) {
        return cmd->reply->integer == 1;
    }
    return -1;
}

void redislock_tally_vote(redislock_tally *t, redislock_cmd *cmd, int vote)
{
    if (vote == 1) {
        redislock_tally_yes(t, cmd);
    } else if (vote == 0) {
        redislock_tally_no(t, cmd);
    } else {
        redislock_tally_failure(t, cmd);
    }
}

void redislock_tally_integer(redislock_tally *t, redislock_cmd *cmd)
{
    redislock_tally_vote(t, cmd, redislock_tally_vote_integer(cmd));
}

redislock_verdict redislock_tally_verdict(const redislock_tally *t, uint32_t quorum)
{
    if (t->yes >= quorum) {
        return REDISLOCK_VERDICT_YES;
    }
    return t->yes + t->failed >= quorum ? REDISLOCK_VERDICT_UNKNOWN : REDISLOCK_VERDICT_NO;
}

/* The kind of the failures among n commands: any server that could not
 * serve (not reached, no answer in time, or refusing because of its state:
 * redislock_cmd_kind()) makes it REDISLOCK_E_CONNECTION, since trying
 * again later may succeed; else REDISLOCK_E_SERVER. */
static redislock_errcode failure_kind(const redislock_cmd *cmds, uint32_t n)
{
    redislock_errcode code = REDISLOCK_E_SERVER;

    for (uint32_t i = 0; i < n; i++) {
        if (redislock_cmd_kind(&cmds[i]) == REDISLOCK_E_CONNECTION) {
            code = REDISLOCK_E_CONNECTION;
        }
    }
    return code;
}

void redislock_tally_describe(const redislock_tally *t, uint32_t n, uint32_t quorum, const redislock_cmd *cmds,
                              const char *what, redislock_error *e)
{
    char *out = e->msg;
    size_t outlen = sizeof(e->msg), off;

    if (n > 0 && cmds[0].status == REDISLOCK_CMD_SAME_SERVER) {
        /* The list names one server twice (every command says which). */
        e->code = REDISLOCK_E_CONFIG;
        snprintf(out, outlen, "%s", cmds[0].errstr);
        return;
    }
    e->code = failure_kind(cmds, n);
    if (n == 1) {
        snprintf(out, outlen, "%s failed: %s", what, cmds[0].errstr);
        return;
    }
    if (t->failed + quorum > n) {
        off = (size_t) snprintf(out, outlen, "%s failed: no quorum (%u of %u servers needed, %u failed)", what, quorum,
                                n, t->failed);
    } else {
        /* A quorum answered, but the failures could change the outcome. */
        off = (size_t) snprintf(out, outlen,
                                "%s failed: outcome unknown (%u of %u servers must agree: %u yes, %u no, %u failed)",
                                what, quorum, n, t->yes, t->no, t->failed);
    }
    for (uint32_t i = 0; i < n && off < outlen; i++) {
        if (cmds[i].status != REDISLOCK_CMD_OK) {
            off += (size_t) snprintf(out + off, outlen - off, "; %s", cmds[i].errstr);
        }
    }
}
