/*
 * A script call being put together: its keys (KEYS), then its arguments
 * (ARGV), without copying them.
 */
#ifndef REDISLOCK_CALL_H
#define REDISLOCK_CALL_H

#include "php.h"

/* A script call being put together: its keys (KEYS), then its arguments
 * (ARGV). argv[0] and argv[1] (EVALSHA and the SHA, or EVAL and the body)
 * are the sender's. The arrays point into the struct, which therefore stays
 * where it was set up. */
#define REDISLOCK_CALL_MAX 32
#define REDISLOCK_CALL_NUMS 4

typedef struct redislock_call {
    const char *argv[REDISLOCK_CALL_MAX];
    size_t lens[REDISLOCK_CALL_MAX];
    int argc;
    int nkeys;
    int nums;
    char numkeys[3];
    char num[REDISLOCK_CALL_NUMS][24];
} redislock_call;

/* Starts an empty call: no key, no argument. */
void redislock_call_init(redislock_call *c);
/* Adds a key; every key comes before the first argument. At most 99. */
void redislock_call_key(redislock_call *c, const zend_string *key);
void redislock_call_keyl(redislock_call *c, const char *key, size_t len);
/* Adds an argument (after the keys). */
void redislock_call_arg(redislock_call *c, const char *arg, size_t len);
/* Adds a number argument, written in decimal (at most REDISLOCK_CALL_NUMS a call). */
void redislock_call_long(redislock_call *c, zend_long v);
/* Adds "1" or "0". */
void redislock_call_bool(redislock_call *c, bool v);
struct redislock_script;
/* Makes c a call of script by its SHA (argv[0] and argv[1]: EVALSHA). */
void redislock_call_evalsha(redislock_call *c, const struct redislock_script *script);

#endif /* REDISLOCK_CALL_H */
