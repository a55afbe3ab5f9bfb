/*
 * What the primitives beside the lock (RedisLock\RateLimiter,
 * RedisLock\Atomic) share: settings made of RedisLock's connection options on
 * one server, one key from the prefix and a name, one command or script on
 * that server through the round layer, and the error kept when it failed.
 * Their PHP objects are in php/primitive.c.
 */
#ifndef REDISLOCK_PRIM_H
#define REDISLOCK_PRIM_H

#include "config/config.h"
#include "base/error.h"
#include "client/exec.h"
#include "base/clock.h"
#include "engine/round.h"
#include "engine/scripts.h"

typedef struct redislock_prim {
    redislock_settings settings;
    zend_string *key;    /* prefix + name + the class's suffix */
    redislock_error err; /* what went wrong, after REDISLOCK_ERR */
    bool initialized;    /* set up (redislock_prim_init()), until redislock_prim_dtor() */
} redislock_prim;

/* Sets up p, whose settings are set up already (redislock_options_lock(),
 * taken over by p), for the key prefix + name + suffix. */
void redislock_prim_init(redislock_prim *p, const zend_string *prefix, const zend_string *name, const char *suffix);

/* Frees what p holds (its settings and key). */
void redislock_prim_dtor(redislock_prim *p);

/* Starts the script call c with p's key as KEYS[1]; the caller adds the
 * arguments (redislock_call_arg() and friends). */
void redislock_prim_call_init(redislock_prim *p, redislock_call *c);

/* Runs script on p's server with the call c (EVALSHA, EVAL after
 * NOSCRIPT). On success *cmd holds the reply (free it with
 * redislock_cmd_dtor()) and the return is REDISLOCK_OK; otherwise p->err
 * says why "what" failed. */
int redislock_prim_script(redislock_prim *p, const redislock_script *script, redislock_call *c, redislock_cmd *cmd,
                          const char *what);

/* Sends one command naming p's key (cmdname key) and reads its reply, as
 * redislock_prim_script(), a reply of at most reply_max bytes (0: a small
 * one; a larger reply is an error of kind REDISLOCK_E_SERVER). */
int redislock_prim_command(redislock_prim *p, const char *cmdname, size_t reply_max, redislock_cmd *cmd,
                           const char *what);

/* The connection options of p's commands (its timeouts, persistence). */
redislock_netopts redislock_prim_netopts(const redislock_prim *p);

/* Records in p->err that the reply to what was not of the expected shape,
 * and frees cmd. Returns REDISLOCK_ERR. */
int redislock_prim_unexpected(redislock_prim *p, redislock_cmd *cmd, const char *what);

/* Sleeps us microseconds (a signal does not cut it short). */
void redislock_prim_sleep(uint64_t us);

#endif /* REDISLOCK_PRIM_H */
