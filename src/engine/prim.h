/*
 * What the primitives beside the lock (RedisLock\RateLimiter,
 * RedisLock\Atomic) share: settings made of RedisLock's connection options on
 * one server, one key from the prefix and a name, one command or script on
 * that server through the round layer, and the error thrown when it failed.
 */
#ifndef REDISLOCK_PRIM_H
#define REDISLOCK_PRIM_H

#include "config/config.h"
#include "base/error.h"
#include "client/exec.h"
#include "engine/round.h"
#include "engine/scripts.h"

#include <string.h>

typedef struct redislock_prim {
    redislock_settings settings;
    zend_string *key;    /* prefix + name + the class's suffix */
    redislock_error err; /* what went wrong, after REDISLOCK_ERR */
    bool initialized;    /* the constructor completed */
} redislock_prim;

/* The objects of these classes are structs that start with their
 * redislock_prim and end with their zend_object std. */

/* The object of type of the method's $this, or a thrown Error when its
 * constructor did not complete. */
#define REDISLOCK_PRIM_FETCH(o, type) do { \
        zend_object *obj_ = Z_OBJ_P(ZEND_THIS); \
        (o) = (type *) ((char *) obj_ - obj_->handlers->offset); \
        if (!(o)->prim.initialized) { \
            zend_throw_error(NULL, "%s object is not initialized", ZSTR_VAL(obj_->ce->name)); \
            RETURN_THROWS(); \
        } \
    } while (0)

/* A new object of size bytes (the whole struct) with handlers h. */
zend_object *redislock_prim_create(zend_class_entry *ce, size_t size, const zend_object_handlers *h);

/* Sets h up for objects whose std is at offset: the standard handlers, a
 * free that ends the redislock_prim, no clone. */
void redislock_prim_handlers(zend_object_handlers *h, size_t offset);

/* Sets up p, not set up before, for name (argument 1 of the PHP call) with options (argument
 * arg_num): RedisLock's connection options through redislock_options_lock(),
 * except own (the caller's own option, or NULL), which the caller reads, and
 * the lock-only options, which are refused. A list of several servers is
 * refused too, saying why (cls and why: "RedisLock\Atomic", "a value ...").
 * The key is prefix + name + suffix. Returns REDISLOCK_ERR with a
 * ValueError/TypeError thrown on bad input, leaving nothing to free. */
int redislock_prim_init(redislock_prim *p, const char *cls, const char *why, zend_string *name, const char *suffix,
                        HashTable *options, uint32_t arg_num, const char *own);
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

/* Records in p->err that the reply to what was not of the expected shape,
 * and frees cmd. Returns REDISLOCK_ERR. */
int redislock_prim_unexpected(redislock_prim *p, redislock_cmd *cmd, const char *what);

/* Throws p->err as the exception of its kind. */
void redislock_prim_throw(redislock_prim *p);

/* Sleeps us microseconds (a signal does not cut it short). */
void redislock_prim_sleep(uint64_t us);

/* Whether s is the C string c (zend_string_equals_cstr() is PHP 8.2's). */
static inline bool redislock_str_is(const zend_string *s, const char *c)
{
    size_t len = strlen(c);

    return ZSTR_LEN(s) == len && memcmp(ZSTR_VAL(s), c, len) == 0;
}

/* Registration of the classes, from MINIT. */
void redislock_ratelimiter_register(void);
void redislock_atomic_register(void);

#endif /* REDISLOCK_PRIM_H */
