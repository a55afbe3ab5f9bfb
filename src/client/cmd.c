/*
 * A command and what came of it: its deadline, its replies, its end, and
 * the quorum test of a round (client/cmd.h).
 */
#include "php_redislock.h"
#include "client/cmd.h"
#include "client/reply.h"

#include <string.h>

void redislock_cmd_deadline(redislock_cmd *cmd, const redislock_netopts *o, uint64_t from, zend_long timeout_ms)
{
    cmd->deadline = from + (uint64_t) timeout_ms * 1000;
    cmd->timeout_ms = timeout_ms;
    if (o->deadline && o->deadline < cmd->deadline) {
        cmd->deadline = o->deadline;
        cmd->timeout_ms = o->deadline > from ? (zend_long) ((o->deadline - from) / 1000) : 0;
    }
}

/* Commands in what was sent: buf, or the native form chosen. */
static int sent_count(const redislock_cmd *cmd)
{
    return cmd->native ? cmd->natives[cmd->native - 1].count : cmd->count;
}

const redisReply *redislock_cmd_reply(const redislock_cmd *cmd, int k)
{
    if (cmd->in_hello || k < 0 || k >= sent_count(cmd)) {
        return NULL;
    }
    if (k == sent_count(cmd) - 1) {
        return cmd->reply;
    }
    return k < cmd->got ? cmd->early[k] : NULL;
}

/* redislock_cmd_keep_first(), inlined: redislock_cmd_dtor() runs it with
 * keep 0 after every exchange. */
static zend_always_inline void keep_first(redislock_cmd *cmd, int keep)
{
    if (cmd->in_hello) {
        keep = 0; /* early holds the handshake's replies, none of the pipeline's */
    }
    for (int k = keep; k < MIN(cmd->got, cmd->expect - 1); k++) {
        freeReplyObject(cmd->early[k]);
    }
    cmd->got = MIN(cmd->got, keep);
    if (cmd->reply) {
        freeReplyObject(cmd->reply);
        cmd->reply = NULL;
    }
}

void redislock_cmd_keep_first(redislock_cmd *cmd, int keep)
{
    keep_first(cmd, keep);
}

redisReply *redislock_cmd_take_reply(redislock_cmd *cmd, int k)
{
    redisReply *r;

    if (k == sent_count(cmd) - 1) {
        r = cmd->reply;
        cmd->reply = NULL;
    } else {
        r = cmd->early[k];
        cmd->early[k] = NULL;
    }
    return r;
}

void redislock_cmd_finish(redislock_cmd *cmd, redisReply *const *replies, int status, const char *errstr)
{
    int last = cmd->count - 1;

    for (int k = 0; k < last; k++) {
        cmd->early[k] = replies[k];
    }
    cmd->reply = replies[last];
    cmd->got = last;
    cmd->expect = cmd->count;
    cmd->in_hello = false;
    cmd->conn = NULL;
    cmd->phase = REDISLOCK_PHASE_DONE;
    cmd->status = status;
    memcpy(cmd->errstr, errstr, sizeof(cmd->errstr));
}

void redislock_cmd_refused(redislock_cmd *cmd, const redisReply *r)
{
    char text[REDISLOCK_ERRLEN];
    const char *hint = redislock_reply_refusal(r);

    redislock_reply_error_text(r, text, sizeof(text));
    cmd->status = REDISLOCK_CMD_ERROR;
    snprintf(cmd->errstr, sizeof(cmd->errstr), "%s replied: %s%s%s%s", cmd->srv->label, text,
             hint && hint[0] ? " (" : "", hint ? hint : "", hint && hint[0] ? ")" : "");
}

redislock_errcode redislock_cmd_kind(const redislock_cmd *cmd)
{
    switch (cmd->status) {
        case REDISLOCK_CMD_OK:
            return REDISLOCK_E_NONE;
        case REDISLOCK_CMD_ERROR:
            /* A refusal anywhere in the pipeline: the server's state
             * refused them all (the replies before it ran, if any). */
            if (redislock_reply_refusal(cmd->reply)) {
                return REDISLOCK_E_CONNECTION;
            }
            for (int k = 0; k < sent_count(cmd) - 1; k++) {
                if (redislock_reply_refusal(redislock_cmd_reply(cmd, k))) {
                    return REDISLOCK_E_CONNECTION;
                }
            }
            return REDISLOCK_E_SERVER;
        case REDISLOCK_CMD_CONNECT:
        case REDISLOCK_CMD_LOST:
        case REDISLOCK_CMD_TIMEOUT:
            return REDISLOCK_E_CONNECTION;
        default:
            return REDISLOCK_E_SERVER; /* a reply too large: asking again gets the same */
    }
}

bool redislock_cmd_finished(const redislock_cmd *cmd)
{
    return cmd->status != REDISLOCK_CMD_NOTSENT
        && (cmd->phase == REDISLOCK_PHASE_DONE || cmd->phase == REDISLOCK_PHASE_IDLE);
}

void redislock_cmd_dtor(redislock_cmd *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        keep_first(&cmds[i], 0);
    }
}

bool redislock_cmd_enough_answered(const redislock_enough *e)
{
    for (size_t i = 0; i < e->n; i++) {
        if (redislock_cmd_finished(&e->cmds[i]) && e->vote(&e->cmds[i]) >= 0) {
            return true;
        }
    }
    return false;
}

bool redislock_cmd_enough_known(const redislock_enough *e)
{
    uint32_t yes = 0, unsure = 0;

    for (size_t i = 0; i < e->n; i++) {
        const redislock_cmd *cmd = &e->cmds[i];
        if (!redislock_cmd_finished(cmd)) {
            unsure++;
        } else {
            int v = e->vote(cmd);
            yes += v == 1;
            unsure += v == -1;
        }
    }
    /* Yes from a quorum, or not even every failure and every command still
     * under way turning into a yes would make one. */
    return yes >= e->quorum || yes + unsure < e->quorum;
}
