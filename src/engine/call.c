/*
 * A script call being put together (call.h).
 */
#include "engine/call.h"
#include "engine/scripts.h"

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

void redislock_call_evalsha(redislock_call *c, const redislock_script *script)
{
    c->argv[0] = "EVALSHA";
    c->lens[0] = 7;
    c->argv[1] = script->sha;
    c->lens[1] = 40;
}
