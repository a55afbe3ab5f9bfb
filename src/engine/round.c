/*
 * The round layer: send, recover NOSCRIPT, gather, count, decide.
 */
#include "php_redislock.h"
#include "engine/round.h"
#include "engine/leftovers.h"
#include "base/resp.h"

#include <string.h>

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
            cmds[i].ahead = (uint8_t) k; /* read only when any: then set for every command */
            if (k > 0) {
                smart_str_appendl(&ahead[i], buf, len);
                cmds[i].buf = ZSTR_VAL(ahead[i].s);
                cmds[i].len = ZSTR_LEN(ahead[i].s);
                cmds[i].count = k + count;
                cmds[i].nnatives = 0; /* the leftovers' releases go ahead of the script */
                any = true;
            }
        }
    }
    if (!any) {
        redislock_exec(cmds, n, o);
        return;
    }
    /* Their replies settle them even when the list turns out to name one
     * server twice (which voids the replies of the exchange). */
    redislock_netopts with = *o;
    with.ahead = true;
    redislock_exec(cmds, n, &with);
    redislock_leftovers_settle();
    for (size_t i = 0; i < n; i++) {
        smart_str_free(&ahead[i]);
    }
}

static void send_cmds(redislock_cmd *cmds, size_t n, const redislock_netopts *o, int argc, const char **argv,
                      const size_t *lens)
{
    smart_str cmd = { 0 };

    redislock_resp_encode(&cmd, argc, argv, lens);
    send_encoded(cmds, n, o, &cmd, 1);
    smart_str_free(&cmd);
}

/* Appends the n commands of a pipeline to out in RESP. */
static void encode_all(smart_str *out, const redislock_words *w, int n)
{
    for (int k = 0; k < n; k++) {
        redislock_resp_encode(out, w[k].argc, w[k].argv, w[k].lens);
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

bool redislock_round_noscript_reply(const redisReply *r)
{
    return r && r->type == REDIS_REPLY_ERROR && r->len >= 8 && memcmp(r->str, "NOSCRIPT", 8) == 0;
}

bool redislock_round_noscript(const redislock_cmd *cmd)
{
    return cmd->status == REDISLOCK_CMD_ERROR && redislock_round_noscript_reply(cmd->reply);
}

/* redislock_round_script(), each server's command sent as the first of
 * natives its connection's server can run, if any (o->natives set when
 * nnatives > 0: the commands' natives are read only then). */
static uint32_t script_or_natives(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                  const redislock_script *script, redislock_cmd *cmds, int argc, const char **argv,
                                  size_t *lens, const redislock_native *natives, int nnatives)
{
    uint32_t n, reload = 0;
    redislock_cmd again[REDISLOCK_MAX_SERVERS];
    uint32_t where[REDISLOCK_MAX_SERVERS];

    argv[0] = "EVALSHA";
    lens[0] = 7;
    argv[1] = script->sha;
    lens[1] = 40;
    n = address(list, mask, cmds);
    for (uint32_t i = 0; nnatives > 0 && i < n; i++) {
        cmds[i].natives = natives;
        cmds[i].nnatives = nnatives;
    }
    send_cmds(cmds, n, o, argc, argv, lens);
    for (uint32_t i = 0; i < n; i++) {
        if (redislock_round_noscript(&cmds[i])) {
            redislock_cmd_dtor(&cmds[i], 1);
            again[reload] = cmds[i];
            again[reload].nnatives = 0; /* the script's body now, nothing else */
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

uint32_t redislock_round_script(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                const redislock_script *script, redislock_cmd *cmds, int argc, const char **argv,
                                size_t *lens)
{
    return script_or_natives(list, mask, o, script, cmds, argc, argv, lens, NULL, 0);
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

uint32_t redislock_round_call(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                              const redislock_script *script, redislock_cmd *cmds, redislock_call *c)
{
    return redislock_round_script(list, mask, o, script, cmds, c->argc, c->argv, c->lens);
}


uint32_t redislock_round_call_natives(const redislock_servers *list, uint32_t mask, const redislock_netopts *o,
                                      const redislock_script *script, redislock_cmd *cmds, redislock_call *c,
                                      const redislock_native *natives, int nnatives)
{
    redislock_netopts no = *o;

    no.natives = nnatives > 0;
    return script_or_natives(list, mask, &no, script, cmds, c->argc, c->argv, c->lens, natives, nnatives);
}
