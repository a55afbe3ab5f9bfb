/*
 * The ZooKeeper lock recipe: an ephemeral sequential node under the lock's
 * parent node, held when it is the lowest; a waiter watches only the node
 * just before its own. No zvals here: the class is in php/class_zookeeper_lock.c.
 */
#ifndef REDISLOCK_ZOOKEEPER_LOCK_H
#define REDISLOCK_ZOOKEEPER_LOCK_H

#include "php.h"
#include "base/error.h"

#define REDISLOCK_ZK_GUID_LEN 32 /* hex digits of the per-attempt identifier */

typedef struct redislock_zk_lock {
    char *hosts;               /* connect string (emalloc'd) */
    char *parent;              /* <root>/<name> (emalloc'd) */
    zend_long session_timeout; /* ms */
    zend_long connect_timeout; /* ms: bound of every request and of connecting */
    bool auto_release;

    char *node;                /* the node we hold (emalloc'd), NULL when not held */
    zend_long fence;           /* its sequence number */
    uint64_t serial;           /* the session it belongs to */
    redislock_error err;
} redislock_zk_lock;

/* Takes the lock, waiting up to wait_ms for it. REDISLOCK_OK with *acquired
 * (false: held elsewhere and the wait ran out; our node is deleted again),
 * or REDISLOCK_ERR with l->err set. */
int redislock_zk_lock_acquire(redislock_zk_lock *l, zend_long wait_ms, bool *acquired);

/* Deletes our node. *released false: not held, or lost with its session.
 * REDISLOCK_ERR (outcome unknown): the node is left to the session's
 * orphans, deleted later, and the hold is dropped. */
int redislock_zk_lock_release(redislock_zk_lock *l, bool *released);

/* Asks the server whether our node is still there: *held true only when it
 * is and the answer vouches for the session now (it came within 90% of the
 * session timeout after the request was sent); not held when the node or
 * the session is gone (the hold is dropped); REDISLOCK_ERR (a connection
 * error, the hold kept) when no answer came in that time. */
int redislock_zk_lock_check(redislock_zk_lock *l, bool *held);

/* Whether this object has a hold that is not known lost (its session not
 * lost); drops it when it is. Not a claim that the hold is current: that is
 * believed only while the session is vouched for, and acquire() and
 * redislock_zk_lock_check() ask the servers past that. */
bool redislock_zk_lock_held(redislock_zk_lock *l);

/* Milliseconds for which this object's hold is known to be its own
 * without asking: until its session is no longer vouched for (the last
 * answer of the servers, dated from its request's send time, plus 90% of
 * the session timeout). 0 when not held or past that; a check (acquire()
 * on a held lock, redislock_zk_lock_check()) that finds the hold renews it. */
zend_long redislock_zk_lock_remaining(redislock_zk_lock *l);

/* Frees what the lock allocated. */
void redislock_zk_lock_dtor(redislock_zk_lock *l);

#endif /* REDISLOCK_ZOOKEEPER_LOCK_H */
