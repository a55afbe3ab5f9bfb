/*
 * Nodes of ours that may sit on the server with nothing holding them (a
 * create or a delete whose outcome is unknown): the children of a parent
 * whose name holds a guid, deleted when the session is next used, at
 * request end, or with the session.
 */
#ifndef REDISLOCK_ZOOKEEPER_ORPHANS_H
#define REDISLOCK_ZOOKEEPER_ORPHANS_H

#include <stdbool.h>
#include <stdint.h>

#include "zookeeper/zk_session.h"

/* Remembers the children of parent whose name holds guid as orphans of s. */
void redislock_zk_orphans_add(redislock_zk_session *s, const char *parent, const char *guid);

/* Deletes the orphans of s; ZOK when none is left. */
int redislock_zk_orphans_clean(redislock_zk_session *s, uint64_t deadline);

/* Deletes the orphans of every session of this process, each request
 * bounded by timeout_ms. A session whose orphans cannot be deleted is
 * closed, which deletes them with it (only when nothing of this request
 * still holds on it: holding says so). */
void redislock_zk_orphans_flush(zend_long timeout_ms, bool (*holding)(uint64_t serial));

#endif /* REDISLOCK_ZOOKEEPER_ORPHANS_H */
