/*
 * The requests the lock recipe sends on a ZooKeeper session (zk_session.h),
 * each waited for on the PHP thread up to a deadline in monotonic
 * microseconds.
 *
 * Requests return ZooKeeper's own codes (ZOK, ZNONODE, ...), plus two that
 * this layer decides: ZOPERATIONTIMEOUT when no answer came by the deadline
 * (the request may still be carried out later), and ZSESSIONEXPIRED when the
 * session is known to be gone or has been cut off from the servers for
 * longer than its timeout (its ephemeral nodes must be taken as deleted).
 */
#ifndef REDISLOCK_ZOOKEEPER_REQUEST_H
#define REDISLOCK_ZOOKEEPER_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "zookeeper/zk_session.h"

/* The names of a node's children (malloc'd, freed with
 * redislock_zk_request_names_free). */
typedef struct redislock_zk_names {
    char **name;
    int32_t count;
} redislock_zk_names;

/* Creates the node path with flags (ZOO_EPHEMERAL_SEQUENTIAL, ...); on ZOK
 * *created, when given, receives the path made (malloc'd). */
int redislock_zk_request_create(redislock_zk_session *s, const char *path, int flags, char **created,
                                uint64_t deadline);

/* The names of path's children in *out (empty unless ZOK). */
int redislock_zk_request_children(redislock_zk_session *s, const char *path, redislock_zk_names *out,
                                  uint64_t deadline);

/* Deletes the node path, whatever its version. */
int redislock_zk_request_delete(redislock_zk_session *s, const char *path, uint64_t deadline);

/* Whether the node path exists: ZOK, or ZNONODE. */
int redislock_zk_request_exists(redislock_zk_session *s, const char *path, uint64_t deadline);

/* Sets a one-time watch on path (a data watch: none is left behind when
 * the node is already gone, ZNONODE) and stores in *since the session's
 * event count from before the request, for
 * redislock_zk_session_wait_event(). */
int redislock_zk_request_watch(redislock_zk_session *s, const char *path, uint64_t *since, uint64_t deadline);

/* Removes the data watches this session has on path, on the server too
 * (the one redislock_zk_request_watch() set: only one waiter of a process
 * ever watches a given node). ZOK, or ZNOWATCHER when it has fired
 * already. */
int redislock_zk_request_unwatch(redislock_zk_session *s, const char *path, uint64_t deadline);

/* Frees the names and leaves *names empty. */
void redislock_zk_request_names_free(redislock_zk_names *names);

#endif /* REDISLOCK_ZOOKEEPER_REQUEST_H */
