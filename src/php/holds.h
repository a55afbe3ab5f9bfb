/*
 * The registry of request-scoped holds: every object whose hold (a lock, a
 * node, ...) ends with the request registers here, whatever its class. The
 * registry ends them the same way for every class: when the object ends
 * inside the request, and at request end (RSHUTDOWN) for the objects still
 * alive, however the request ended (return, exit(), uncaught exception,
 * fatal error, timeout). A class takes part through a small table of
 * operations, given once at MINIT; adding a class is registering it here.
 */
#ifndef REDISLOCK_HOLDS_H
#define REDISLOCK_HOLDS_H

#include "php.h"
#include "base/error.h"

typedef struct redislock_holds_entry redislock_holds_entry;

/* What a class does with its holds. */
typedef struct redislock_holds_ops {
    /* The object is ending inside the request: release its hold now when
     * that is due (its auto_release, or in_run). Failures are counted,
     * never thrown. */
    void (*end)(redislock_holds_entry *h);
    /* The request is ending: release the hold when due (or hand it over to
     * be released with others in one go, see engine/leftovers.h). */
    void (*request_end)(redislock_holds_entry *h);
    /* After request_end of every entry of the class, while they are still
     * registered (NULL: nothing to do). */
    void (*request_done)(void);
    /* run(), after its callback: releases the hold now, whatever the
     * settings say. NULL when done; otherwise the reason it failed (the
     * hold is then given up: what remains is removed later). */
    const redislock_error *(*release)(redislock_holds_entry *h);
} redislock_holds_ops;

/* The registry's part of an object, a member of its struct. */
struct redislock_holds_entry {
    const redislock_holds_ops *ops;       /* its class; NULL: not registered */
    redislock_holds_entry *prev, *next;   /* the request's entries, newest first */
    bool in_run;                          /* inside run(): due a release at request end whatever
                                             auto_release says */
};

/* MINIT: the class of ops takes part. The request end handles the classes
 * in the order they were added here. */
void redislock_holds_add_class(const redislock_holds_ops *ops);

/* The object of h (its constructor completed) now holds for the request. */
void redislock_holds_register(redislock_holds_entry *h, const redislock_holds_ops *ops);

/* The object of h is being freed: when registered, releases its hold if
 * due (ops->end) and forgets it. */
void redislock_holds_end(redislock_holds_entry *h);

/* run() on the object obj of h: false, with an Error thrown, when it is
 * inside run() already (the inner run() would release the outer one's
 * hold). */
bool redislock_holds_run_allowed(const redislock_holds_entry *h, const zend_object *obj);

/* run() once the hold is taken: calls fn (its result in ret) with h in_run,
 * then releases in all cases (ops->release). A release that failed after fn
 * returned throws RedisLock\ReleaseException carrying the result; after fn
 * threw, fn's exception wins and the failure is only counted. A fatal error
 * inside fn never returns here: in_run has the request end release the
 * hold instead. */
void redislock_holds_run(redislock_holds_entry *h, zend_fcall_info *fci, zend_fcall_info_cache *fcc, zval *ret);

/* Whether an entry of the class of ops matches (pred with arg). */
bool redislock_holds_any(const redislock_holds_ops *ops, bool (*pred)(redislock_holds_entry *h, void *arg),
                         void *arg);

/* RINIT: the request starts with no holds. */
void redislock_holds_request_start(void);

/* RSHUTDOWN: for each class in the order of redislock_holds_add_class(),
 * request_end of its entries (newest first), then its request_done; then
 * the entries are forgotten. */
void redislock_holds_request_end(void);

#endif /* REDISLOCK_HOLDS_H */
