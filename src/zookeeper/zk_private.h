/*
 * What the files of the ZooKeeper session share and nothing else sees (the
 * lock recipe and the binding use zk_session.h, zk_request.h and
 * zk_orphans.h). Calls go one way: zk_orphans.c -> zk_request.c ->
 * zk_session.c.
 *
 * - The session's structure, defined for all three: zk_session.c opens,
 *   watches and closes it; zk_request.c sends on its handle and records
 *   answers and events in it; zk_orphans.c keeps its orphan list.
 * - The orphan records: added and deleted by zk_orphans.c, freed with their
 *   session by zk_session.c.
 * - Functions of zk_session.c: the two on the session's state under its
 *   mutex, for zk_request.c; the sweep over the sessions, for
 *   zk_orphans.c.
 *
 * The session's fields after mu are written by the client's threads too,
 * and read or written only with mu held. This header stands below
 * zk_session.h (whose redislock_zk_session is this struct): it names the
 * struct by its tag.
 */
#ifndef REDISLOCK_ZOOKEEPER_PRIVATE_H
#define REDISLOCK_ZOOKEEPER_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <zookeeper/zookeeper.h>

#include "php.h"

/* A node to delete later: the children of parent whose name holds guid. */
typedef struct redislock_zk_orphan {
    char *parent;
    char guid[40];
    struct redislock_zk_orphan *next;
} redislock_zk_orphan;

struct redislock_zk_session {
    zhandle_t *zh;
    char *hosts;
    zend_long timeout_ms;
    uint64_t serial;                 /* unique in the process, never reused */
    redislock_zk_orphan *orphans;    /* PHP thread only */
    struct redislock_zk_session *next_inherited;

    pthread_mutex_t mu;
    pthread_cond_t cv;               /* on CLOCK_MONOTONIC */
    bool connected;                  /* the client is connected to a server */
    bool ever_connected;
    bool expired;                    /* expired, refused, or taken as lost: the session is over */
    zend_long server_timeout_ms;     /* the timeout the server granted (0 until connected) */
    uint64_t down_since;             /* monotonic us the connection was lost, 0 when up */
    uint64_t answered_sent;          /* monotonic us the newest request the server answered was sent, 0: none */
    uint64_t events;                 /* watches fired and state changes, counted */
};

/* Whether s must be taken as gone (see zk_session.c). Called with s->mu
 * held. */
bool redislock_zk_session_lost_locked(struct redislock_zk_session *s, uint64_t now);

/* Waits on s's condition variable until deadline (monotonic us) at most,
 * or until the session counts as lost when it is cut off now. Called with
 * s->mu held, which the wait lets go of and takes again. */
void redislock_zk_session_wait_locked(struct redislock_zk_session *s, uint64_t deadline);

/* Calls keep for each session of this process; a session for which it
 * returns false is closed (its ephemeral nodes go with it: at once, or at
 * its timeout when the servers cannot be told). */
void redislock_zk_session_sweep(bool (*keep)(struct redislock_zk_session *s, void *arg), void *arg);

#endif /* REDISLOCK_ZOOKEEPER_PRIVATE_H */
