/*
 * The engine of the primitives beside the lock (see prim.h): their key, one
 * exchange with their server, their errors as values.
 */
#include "php_redislock.h"
#include "engine/prim.h"

#include <string.h>
#include <unistd.h>

void redislock_prim_init(redislock_prim *p, const zend_string *prefix, const zend_string *name, const char *suffix)
{
    p->key = zend_string_concat3(ZSTR_VAL(prefix), ZSTR_LEN(prefix), ZSTR_VAL(name), ZSTR_LEN(name), suffix,
                                 strlen(suffix));
    p->initialized = true;
}

void redislock_prim_dtor(redislock_prim *p)
{
    p->initialized = false;
    redislock_settings_dtor(&p->settings);
    if (p->key) {
        zend_string_release(p->key);
        p->key = NULL;
    }
}

redislock_netopts redislock_prim_netopts(const redislock_prim *p)
{
    redislock_netopts o = {
        .connect_timeout = p->settings.connect_timeout,
        .read_timeout = p->settings.read_timeout,
        .persistent = p->settings.persistent,
    };
    return o;
}

/* Keeps a reply that came, or records why none did. */
static int prim_outcome(redislock_prim *p, redislock_cmd *cmd, const char *what)
{
    return cmd->status == REDISLOCK_CMD_OK ? REDISLOCK_OK : redislock_prim_unexpected(p, cmd, what);
}

void redislock_prim_call_init(redislock_prim *p, redislock_call *c)
{
    redislock_call_init(c);
    redislock_call_key(c, p->key);
}

int redislock_prim_script(redislock_prim *p, const redislock_script *script, redislock_call *c, redislock_cmd *cmd,
                          const char *what)
{
    redislock_netopts o = redislock_prim_netopts(p);

    memset(cmd, 0, sizeof(*cmd));
    redislock_round_call(p->settings.servers, 1, &o, script, cmd, c);
    return prim_outcome(p, cmd, what);
}

int redislock_prim_command(redislock_prim *p, const char *cmdname, size_t reply_max, redislock_cmd *cmd,
                           const char *what)
{
    const char *argv[2] = { cmdname, ZSTR_VAL(p->key) };
    size_t argl[2] = { strlen(cmdname), ZSTR_LEN(p->key) };
    redislock_netopts o = redislock_prim_netopts(p);

    o.reply_max = reply_max;
    memset(cmd, 0, sizeof(*cmd));
    redislock_round_send(p->settings.servers, 1, &o, cmd, 2, argv, argl);
    return prim_outcome(p, cmd, what);
}

int redislock_prim_unexpected(redislock_prim *p, redislock_cmd *cmd, const char *what)
{
    redislock_tally t = { 0 };

    redislock_tally_failure(&t, cmd);
    redislock_tally_describe(&t, 1, 1, cmd, what, &p->err);
    redislock_cmd_dtor(cmd, 1);
    return REDISLOCK_ERR;
}

void redislock_prim_sleep(uint64_t us)
{
    uint64_t until = redislock_now_us() + us, now;

    while ((now = redislock_now_us()) < until) {
        usleep((useconds_t) MIN(until - now, 1000000));
    }
}
