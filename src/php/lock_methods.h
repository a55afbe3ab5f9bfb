/*
 * The methods of the interface RedisLock\Lock (acquire, release, extend,
 * isAcquired, remaining, token, fence, run), written once for every class that
 * implements it: a class gives a small table of its lock's operations, and
 * its PHP methods hand over to these.
 */
#ifndef REDISLOCK_LOCK_METHODS_H
#define REDISLOCK_LOCK_METHODS_H

#include "php.h"
#include "base/error.h"
#include "php/holds.h"
#include "php/object.h"

/* The part of a lock object these methods use: a member of its struct. */
typedef struct redislock_lock_methods_part {
    bool initialized;           /* the constructor completed */
    redislock_holds_entry hold; /* in the registry of holds from then on, while the request lasts */
    redislock_error *err;       /* where the lock keeps what went wrong, after REDISLOCK_ERR */
} redislock_lock_methods_part;

typedef enum redislock_lock_methods_call {
    REDISLOCK_LOCK_METHODS_ACQUIRE, /* take the lock, waiting up to wait ms; *answer: acquired */
    REDISLOCK_LOCK_METHODS_RELEASE, /* give it up; *answer: it was ours and is released now */
    REDISLOCK_LOCK_METHODS_CHECK,   /* ask the servers; *answer: it is still ours */
    REDISLOCK_LOCK_METHODS_EXTEND,  /* renew the hold for ttl ms (0: the lock's own); *answer: still ours */
} redislock_lock_methods_call;

/* The current hold, for token() and fence(). */
typedef struct redislock_lock_methods_held {
    const char *token;
    size_t token_len;
    zend_long fence; /* -1: none */
} redislock_lock_methods_held;

typedef struct redislock_lock_methods_ops {
    size_t part_offset; /* XtOffsetOf(std) - XtOffsetOf(part) in the object's struct */
    bool count_acquire; /* acquire() counts acquired/contended (the class's engine does not) */
    const char *what;   /* what acquire() takes, for run()'s message when it could not ("the lock") */
    /* Runs one call on the lock of obj (arg: the wait of ACQUIRE, the ttl
     * of EXTEND, in ms): REDISLOCK_OK with *answer, or REDISLOCK_ERR with
     * the part's err set. */
    int (*call)(zend_object *obj, redislock_lock_methods_call call, zend_long arg, bool *answer);
    /* Whether obj holds the lock, as far as it knows; *held says what. */
    bool (*held)(zend_object *obj, redislock_lock_methods_held *held);
    /* Milliseconds for which obj's hold is known to be its own by the local
     * clock, without asking the servers; 0 when not held. */
    zend_long (*remaining)(zend_object *obj);
} redislock_lock_methods_ops;

/* The part of obj (a lock object of the class of ops). */
static inline redislock_lock_methods_part *redislock_lock_methods_part_of(const redislock_lock_methods_ops *ops,
                                                                          zend_object *obj)
{
    return (redislock_lock_methods_part *) ((char *) obj - ops->part_offset);
}

/* Defines name, the call function of a class whose objects are structs of
 * type with their lock in the member lock, run by the engine's functions
 * acquire(lock, wait, answer), release(lock, answer), check(lock, answer)
 * and extend(lock, ttl, answer). */
#define REDISLOCK_LOCK_METHODS_CALL(name, type, acquire, release, check, extend) \
    static int name(zend_object *obj, redislock_lock_methods_call call, zend_long arg, bool *answer) \
    { \
        switch (call) { \
            case REDISLOCK_LOCK_METHODS_ACQUIRE: \
                return acquire(&REDISLOCK_OBJECT(type, obj)->lock, arg, answer); \
            case REDISLOCK_LOCK_METHODS_RELEASE: \
                return release(&REDISLOCK_OBJECT(type, obj)->lock, answer); \
            case REDISLOCK_LOCK_METHODS_EXTEND: \
                return extend(&REDISLOCK_OBJECT(type, obj)->lock, arg, answer); \
            default: \
                return check(&REDISLOCK_OBJECT(type, obj)->lock, answer); \
        } \
    }

/* Defines the PHP methods of RedisLock\Lock for the class cls (as in
 * PHP_METHOD(cls, acquire)) over its table ops. */
#define REDISLOCK_LOCK_METHODS(cls, ops) \
    PHP_METHOD(cls, acquire) { redislock_lock_methods_acquire(&(ops), INTERNAL_FUNCTION_PARAM_PASSTHRU); } \
    PHP_METHOD(cls, release) { redislock_lock_methods_release(&(ops), INTERNAL_FUNCTION_PARAM_PASSTHRU); } \
    PHP_METHOD(cls, extend) { redislock_lock_methods_extend(&(ops), INTERNAL_FUNCTION_PARAM_PASSTHRU); } \
    PHP_METHOD(cls, isAcquired) { redislock_lock_methods_is_acquired(&(ops), INTERNAL_FUNCTION_PARAM_PASSTHRU); } \
    PHP_METHOD(cls, remaining) { redislock_lock_methods_remaining(&(ops), INTERNAL_FUNCTION_PARAM_PASSTHRU); } \
    PHP_METHOD(cls, token) { redislock_lock_methods_token(&(ops), INTERNAL_FUNCTION_PARAM_PASSTHRU); } \
    PHP_METHOD(cls, fence) { redislock_lock_methods_fence(&(ops), INTERNAL_FUNCTION_PARAM_PASSTHRU); } \
    PHP_METHOD(cls, run) { redislock_lock_methods_run(&(ops), INTERNAL_FUNCTION_PARAM_PASSTHRU); }

/* The methods, called with the PHP method's INTERNAL_FUNCTION_PARAMETERS. */
void redislock_lock_methods_acquire(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS);
void redislock_lock_methods_release(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS);
void redislock_lock_methods_extend(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS);
void redislock_lock_methods_is_acquired(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS);
void redislock_lock_methods_remaining(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS);
void redislock_lock_methods_token(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS);
void redislock_lock_methods_fence(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS);
void redislock_lock_methods_run(const redislock_lock_methods_ops *ops, INTERNAL_FUNCTION_PARAMETERS);

#endif /* REDISLOCK_LOCK_METHODS_H */
