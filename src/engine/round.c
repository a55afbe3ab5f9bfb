/*
 * The round layer: send, recover NOSCRIPT, gather, count, decide.
 */
#include "php_redislock.h"
#include "engine/round.h"
#include "engine/leftovers.h"
#include "client/reply.h"
#include "base/resp.h"

#include <string.h>

#define SERVER_BIT(cmd) ((uint32_t) 1 << (cmd)->idx)

/* Sends one command to the server of each of the n commands (their srv set
 * by the caller) and gathers the replies, each server's leftover tokens
 * first in the same write: the server removes a stale token of ours before
 * it runs the command. */
static void send_encoded(redislock_cmd *cmds, size_t n, const redislock_netopts *o, const smart_str *cmd, int count)
{
    smart_str ahead[REDISLOCK_MAX_SERVERS];
    const char *buf = ZSTR_VAL(cmd->s);
    size_t len = ZSTR_LEN(cmd->s);
    bool any = false;

    for (size_t i = 0; i < n; i++) {
        cmds[i].buf = buf;
        cmds[i].len = len;
        cmds[i].count = count;
        memset(&ahead[i], 0, sizeof(ahead[i]));
        if (REDISLOCK_G(nleftovers) > 0) {
            int k = redislock_leftovers_ahead(&cmds[i], REDISLOCK_PIPELINE_MAX - count, true, &ahead[i]);
            if (k > 0) {
                smart_str_appendl(&ahead[i], buf, len);
                cmds[i].buf = ZSTR_VAL(ahead[i].s);
                cmds[i].len = ZSTR_LEN(ahead[i].s);
                cmds[i].count = k + count;
                any = true;
            }
        }
    }
    redislock_exec(cmds, n, o);
    if (any) {
        redislock_leftovers_settle();
        for (size_t i = 0; i < n; i++) {
            smart_str_free(&ahead[i]);
        }
    }
}

static void send_cmds(redislock_cmd *cmds, size_t n, const redislock_netopts *o, int argc, const char **argv,
                      const size_t *lens)
{
    smart_str cmd = { 0 };

    redislock_encode(&cmd, argc, argv, lens);
    send_encoded(cmds, n, o, &cmd, 1);
    smart_str_free(&cmd);
}

/* Appends the n commands of a pipeline to out in RESP. */
static void encode_all(smart_str *out, const redislock_words *w, int n)
{
    for (int k = 0; k < n; k++) {
        redislock_encode(out, w[k].argc, w[k].argv, w[k].lens);
    }
}

/* Points cmds[0..n) at the servers of list in mask, in order, each with
 * its index in idx. Returns n. */
static uint32_t address(const redislock_servers *list, uint32_t mask, redislock_cmd *cmds)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < list->count; i++) {
        if (mask & ((uint32_t) 1 << i)) {
            cmds[n].srv = &list->server[i];
            cmds[n].idx = i;
            n++;
        }
    }
    return n;
}

uint32_t redislock_round_send_pipeline(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                       redislock_cmd *cmds, const redislock_words *w, int count)
{
    smart_str cmd = { 0 };
    uint32_t n = address(list, mask, cmds);

    encode_all(&cmd, w, count);
    send_encoded(cmds, n, o, &cmd, count);
    smart_str_free(&cmd);
    return n;
}

uint32_t redislock_round_send(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                              redislock_cmd *cmds, int argc, const char **argv, const size_t *lens)
{
    uint32_t n = address(list, mask, cmds);

    send_cmds(cmds, n, o, argc, argv, lens);
    return n;
}

bool redislock_reply_noscript(const redisReply *r)
{
    return r && r->type == REDIS_REPLY_ERROR && r->len >= 8 && memcmp(r->str, "NOSCRIPT", 8) == 0;
}

bool redislock_cmd_noscript(const redislock_cmd *cmd)
{
    return cmd->status == REDISLOCK_CMD_ERROR && redislock_reply_noscript(cmd->reply);
}

void redislock_cmd_refused_by(redislock_cmd *cmd, const redisReply *r)
{
    char text[REDISLOCK_ERRLEN];

    redislock_reply_error_text(r, text, sizeof(text));
    cmd->status = REDISLOCK_CMD_ERROR;
    snprintf(cmd->errstr, sizeof(cmd->errstr), "%s replied: %s", cmd->srv->label, text);
}

uint32_t redislock_round_script(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                const redislock_script *script, redislock_cmd *cmds, int argc, const char **argv,
                                size_t *lens)
{
    uint32_t n, reload = 0;
    redislock_cmd again[REDISLOCK_MAX_SERVERS];
    uint32_t where[REDISLOCK_MAX_SERVERS];

    argv[0] = "EVALSHA";
    lens[0] = 7;
    argv[1] = script->sha;
    lens[1] = 40;
    n = redislock_round_send(list, mask, o, cmds, argc, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        if (redislock_cmd_noscript(&cmds[i])) {
            redislock_cmd_dtor(&cmds[i], 1);
            again[reload] = cmds[i];
            where[reload++] = i;
        }
    }
    if (reload == 0) {
        return n;
    }

    argv[0] = "EVAL";
    lens[0] = 4;
    argv[1] = script->body;
    lens[1] = script->len;
    send_cmds(again, reload, o, argc, argv, lens);
    for (uint32_t k = 0; k < reload; k++) {
        cmds[where[k]] = again[k];
    }
    REDISLOCK_G(stats).script_reloads += reload;
    return n;
}

void redislock_round_pipeline(const redislock_server *srv, redislock_cmd *cmd, const redislock_netopts *o,
                              const redislock_words *cmds, int n)
{
    smart_str buf = { 0 };

    ZEND_ASSERT(n >= 1 && n <= REDISLOCK_PIPELINE_MAX);
    encode_all(&buf, cmds, n);
    cmd->srv = srv;
    cmd->idx = 0;
    cmd->buf = ZSTR_VAL(buf.s);
    cmd->len = ZSTR_LEN(buf.s);
    cmd->count = n;
    redislock_exec(cmd, 1, o);
    cmd->buf = NULL;
    smart_str_free(&buf);
}

void redislock_call_init(redislock_call *c)
{
    c->argv[0] = c->argv[1] = NULL;
    c->lens[0] = c->lens[1] = 0;
    c->numkeys[0] = '0';
    c->numkeys[1] = '\0';
    c->numkeys[2] = '\0';
    c->argv[2] = c->numkeys;
    c->lens[2] = 1;
    c->argc = 3;
    c->nkeys = 0;
    c->nums = 0;
}

void redislock_call_key(redislock_call *c, const zend_string *key)
{
    redislock_call_keyl(c, ZSTR_VAL(key), ZSTR_LEN(key));
}

void redislock_call_keyl(redislock_call *c, const char *key, size_t len)
{
    ZEND_ASSERT(c->argc == 3 + c->nkeys && c->nkeys < 99 && c->argc < REDISLOCK_CALL_MAX);
    c->argv[c->argc] = key;
    c->lens[c->argc++] = len;
    c->nkeys++;
    if (c->nkeys < 10) {
        c->numkeys[0] = (char) ('0' + c->nkeys);
        c->lens[2] = 1;
    } else {
        c->numkeys[0] = (char) ('0' + c->nkeys / 10);
        c->numkeys[1] = (char) ('0' + c->nkeys % 10);
        c->lens[2] = 2;
    }
}

void redislock_call_arg(redislock_call *c, const char *arg, size_t len)
{
    ZEND_ASSERT(c->argc < REDISLOCK_CALL_MAX);
    c->argv[c->argc] = arg;
    c->lens[c->argc++] = len;
}

void redislock_call_long(redislock_call *c, zend_long v)
{
    char *end, *p;
    zend_ulong u = v < 0 ? (zend_ulong) 0 - (zend_ulong) v : (zend_ulong) v;

    ZEND_ASSERT(c->nums < REDISLOCK_CALL_NUMS);
    end = p = c->num[c->nums] + sizeof(c->num[0]);
    do {
        *--p = (char) ('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) {
        *--p = '-';
    }
    c->nums++;
    redislock_call_arg(c, p, (size_t) (end - p));
}

void redislock_call_bool(redislock_call *c, bool v)
{
    redislock_call_arg(c, v ? "1" : "0", 1);
}

uint32_t redislock_round_call(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                              const redislock_script *script, redislock_cmd *cmds, redislock_call *c)
{
    return redislock_round_script(list, mask, o, script, cmds, c->argc, c->argv, c->lens);
}

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

int redislock_vote_integer(const redislock_cmd *cmd)
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
    redislock_tally_vote(t, cmd, redislock_vote_integer(cmd));
}

redislock_verdict redislock_tally_verdict(const redislock_tally *t, uint32_t quorum)
{
    if (t->yes >= quorum) {
        return REDISLOCK_VERDICT_YES;
    }
    return t->yes + t->failed >= quorum ? REDISLOCK_VERDICT_UNKNOWN : REDISLOCK_VERDICT_NO;
}

/* The kind of the failures among n commands: any connection-level failure
 * makes it REDISLOCK_E_CONNECTION (trying again later may succeed). */
static redislock_errcode failure_kind(const redislock_cmd *cmds, uint32_t n)
{
    redislock_errcode code = REDISLOCK_E_SERVER;

    for (uint32_t i = 0; i < n; i++) {
        int st = cmds[i].status;
        if (st == REDISLOCK_CMD_CONNECT || st == REDISLOCK_CMD_LOST || st == REDISLOCK_CMD_TIMEOUT) {
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
