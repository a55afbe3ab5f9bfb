/*
 * The ZooKeeper sessions of this process (one per connect string and
 * session timeout), opened on first use after fork and kept for later
 * requests. The requests sent on a session are in zk_request.h, the nodes
 * left to delete later in zk_orphans.h.
 *
 * Threads: the multi-threaded ZooKeeper client runs its own I/O and
 * completion threads. Everything they call here (the watcher and the
 * completions) only records a result under the session's mutex and wakes
 * the PHP thread through a condition variable: plain C, no Zend function,
 * no emalloc, no zval. Everything else runs on the PHP thread.
 *
 * The waits return ZooKeeper's own codes (ZOK, ...), or one of two that
 * this layer decides: ZOPERATIONTIMEOUT when the deadline (monotonic us)
 * passed first, and ZSESSIONEXPIRED when the session is known to be gone or
 * has been cut off from the servers for longer than its timeout (its
 * ephemeral nodes must be taken as deleted).
 */
#ifndef REDISLOCK_ZOOKEEPER_SESSION_H
#define REDISLOCK_ZOOKEEPER_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"

typedef struct redislock_zk_session redislock_zk_session;

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

/* Waits until the session is connected again after a connection loss.
 * ZOK, ZSESSIONEXPIRED or ZOPERATIONTIMEOUT. */
int redislock_zk_session_ready(redislock_zk_session *s, uint64_t deadline);

/* Waits until an event newer than since (a watch fired, the connection
 * changed state) or the deadline. true: an event came. since comes from
 * redislock_zk_request_watch(). */
bool redislock_zk_session_wait_event(redislock_zk_session *s, uint64_t since, uint64_t deadline);

/* Process end, or a thread's end in a threaded (ZTS) PHP: closes this
 * thread's sessions (their ephemeral nodes go at once rather than at the
 * session timeout). Each thread has its own sessions there. */
void redislock_zk_session_close_all(void);

/* For phpinfo(): calls fn once per session. */
void redislock_zk_session_describe_all(void (*fn)(const char *hosts, long long id, bool connected, void *arg),
                                       void *arg);

#endif /* REDISLOCK_ZOOKEEPER_SESSION_H */
