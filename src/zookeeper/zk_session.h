/*
 * The ZooKeeper session of this process (one per connect string and session
 * timeout), opened on first use after fork and kept for later requests, and
 * the requests the lock recipe sends on it.
 *
 * Threads: the multi-threaded ZooKeeper client runs its own I/O and
 * completion threads. Everything they call here (the watcher and the
 * completions) only records a result under the session's mutex and wakes
 * the PHP thread through a condition variable: plain C, no Zend function,
 * no emalloc, no zval. Everything else runs on the PHP thread.
 *
 * Requests return ZooKeeper's own codes (ZOK, ZNONODE, ...), plus two that
 * this layer decides: ZOPERATIONTIMEOUT when no answer came by the deadline
 * (the request may still be carried out later), and ZSESSIONEXPIRED when the
 * session is known to be gone or has been cut off from the servers for
 * longer than its timeout (its ephemeral nodes must be taken as deleted).
 */
#ifndef REDISLOCK_ZOOKEEPER_SESSION_H
#define REDISLOCK_ZOOKEEPER_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"

typedef struct redislock_zk_session redislock_zk_session;

/* The names of a node's children (malloc'd, freed with redislock_zk_names_free). */
typedef struct redislock_zk_names {
    char **name;
    int32_t count;
} redislock_zk_names;

/* The session for hosts and session_timeout (ms), connected: the one this
 * process already has, or a new one when there is none or the old one was
 * lost. Waits at most connect_timeout ms for the connection. NULL with *err
 * set (a connection error) when it cannot be had. */
redislock_zk_session *redislock_zk_session_get(const char *hosts, zend_long session_timeout,
                                               zend_long connect_timeout, redislock_error *err);

/* The session with this serial number if it is still this process's and not
 * lost, else NULL. Holds remember the serial of the session they belong to. */
redislock_zk_session *redislock_zk_session_find(uint64_t serial);
uint64_t redislock_zk_session_serial(const redislock_zk_session *s);
const char *redislock_zk_session_hosts(const redislock_zk_session *s);

/* What this process may believe of the session without asking: until when
 * (monotonic us) it is known to be alive on the servers, and so its
 * ephemeral nodes with it. The servers expire a session a timeout (the one
 * they granted) after the last thing they heard from its client; they
 * heard each request after it was sent, so the newest request they answered
 * (any answer, even an error such as ZNONODE) vouches for the session until
 * its send time plus the timeout. A margin of a tenth of the timeout is
 * kept. Answers the client gets that prove nothing of when the servers last
 * heard from it (its pings, whose answers it does not pass on, watch events,
 * connection events) do not count. 0 when the session is lost or nothing
 * was answered yet. */
uint64_t redislock_zk_session_alive_until(redislock_zk_session *s);

/* How long (us) an answer to a request sent now vouches for the session:
 * its timeout less the margin. A request that confirms a hold is not worth
 * waiting for longer. */
uint64_t redislock_zk_session_belief_us(redislock_zk_session *s);

/* The requests; deadline in monotonic microseconds. */
int redislock_zk_create(redislock_zk_session *s, const char *path, int flags, char **created, uint64_t deadline);
int redislock_zk_children(redislock_zk_session *s, const char *path, redislock_zk_names *out, uint64_t deadline);
int redislock_zk_delete(redislock_zk_session *s, const char *path, uint64_t deadline);
int redislock_zk_exists(redislock_zk_session *s, const char *path, uint64_t deadline);

/* Sets a one-time watch on path (a data watch: none is left behind when
 * the node is already gone, ZNONODE) and stores in *since the session's
 * event count from before the request, for redislock_zk_wait_event(). */
int redislock_zk_watch(redislock_zk_session *s, const char *path, uint64_t *since, uint64_t deadline);

/* Removes the data watches this session has on path, on the server too
 * (the one redislock_zk_watch() set: only one waiter of a process ever
 * watches a given node). ZOK, or ZNOWATCHER when it has fired already. */
int redislock_zk_unwatch(redislock_zk_session *s, const char *path, uint64_t deadline);

/* Waits until an event newer than since (a watch fired, the connection
 * changed state) or the deadline. true: an event came. */
bool redislock_zk_wait_event(redislock_zk_session *s, uint64_t since, uint64_t deadline);

/* Waits until the session is connected again after a connection loss.
 * ZOK, ZSESSIONEXPIRED or ZOPERATIONTIMEOUT. */
int redislock_zk_session_ready(redislock_zk_session *s, uint64_t deadline);

void redislock_zk_names_free(redislock_zk_names *names);

/* Nodes of ours that may sit on the server with nothing holding them (a
 * create or a delete whose outcome is unknown): the children of parent
 * whose name holds guid, deleted when the session is next used, at request
 * end, or with the session. */
void redislock_zk_orphan_add(redislock_zk_session *s, const char *parent, const char *guid);

/* Deletes the orphans of every session of this process, each request
 * bounded by timeout_ms. A session whose orphans cannot be deleted is
 * closed, which deletes them with it (only when nothing of this request
 * still holds on it: holding says so). */
void redislock_zk_orphans_flush(zend_long timeout_ms, bool (*holding)(uint64_t serial));

/* Deletes the orphans of s; ZOK when none is left. */
int redislock_zk_orphans_clean(redislock_zk_session *s, uint64_t deadline);

/* Process end: closes this process's sessions (their ephemeral nodes go at
 * once rather than at the session timeout). */
void redislock_zk_sessions_close(void);

/* For phpinfo(): calls fn once per session. */
void redislock_zk_sessions_describe(void (*fn)(const char *hosts, long long id, bool connected, void *arg),
                                    void *arg);

#endif /* REDISLOCK_ZOOKEEPER_SESSION_H */
