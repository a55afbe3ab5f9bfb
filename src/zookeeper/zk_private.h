/*
 * What the files of the ZooKeeper session share and nothing else sees: the
 * session's structure. Its fields after mu are written by the client's
 * threads too, and read or written only with mu held.
 */
#ifndef REDISLOCK_ZOOKEEPER_PRIVATE_H
#define REDISLOCK_ZOOKEEPER_PRIVATE_H

#include <pthread.h>
#include <zookeeper/zookeeper.h>

#include "zookeeper/zk_session.h"

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

bool redislock_zk_lost_locked(redislock_zk_session *s, uint64_t now);

/* The session's timeout in us: the one the server granted once known (it
 * may differ from the one asked for), else the one asked for. Called with
 * s->mu held. */
uint64_t redislock_zk_timeout_us_locked(const redislock_zk_session *s);
void redislock_zk_cond_wait(redislock_zk_session *s, uint64_t deadline);

/* Frees the orphan list of s (its session ended, and its nodes with it). */
void redislock_zk_orphans_drop(redislock_zk_session *s);

#endif /* REDISLOCK_ZOOKEEPER_PRIVATE_H */
