/*
 * The native commands a lock uses instead of a script where the server has
 * them (client/conn.h learns which, per connection, from its handshake) and
 * the outcome is the script's: compare-and-delete for the release of a
 * plain exclusive hold on one server, compare-and-set for the extend of an
 * exclusive hold. Everywhere else (fair mode, shared holds, forceRelease,
 * leftovers, the release on SIGTERM, a lock over a quorum's release, a
 * Sentinel or Cluster's routing) and on servers without them, the scripts.
 */
#ifndef REDISLOCK_NATIVE_H
#define REDISLOCK_NATIVE_H

#include "php_redislock.h"
#include "zend_smart_str.h"
#include "engine/lock.h"

/* Whether a release (of a plain hold on one server) or an extend of l may
 * go native at all: the setting allows it, and some connection's server has
 * the commands (what the handshakes found so far). Checked before any other
 * work, so that where no server has them (Redis before 8.4, Valkey before
 * 9.0 for the release, 8.1 for the extend) a lock costs what the scripts
 * alone did. */
static zend_always_inline bool redislock_native_release_possible(const redislock_lock *l)
{
    return (REDISLOCK_G(natives_seen) & (REDISLOCK_NATIVE_DELIFEQ | REDISLOCK_NATIVE_DELEX))
           && l->settings.native_commands;
}

static zend_always_inline bool redislock_native_extend_possible(const redislock_lock *l)
{
    return (REDISLOCK_G(natives_seen) & REDISLOCK_NATIVE_SETIFEQ) && l->settings.native_commands;
}

/* The native forms of one operation, put together once for all servers. */
typedef struct redislock_native_forms {
    redislock_native nv[REDISLOCK_NATIVES_MAX];
    smart_str buf[REDISLOCK_NATIVES_MAX];
    int n;
} redislock_native_forms;

/* The release's native forms for l (a plain exclusive hold, not fair, on
 * one server): DELIFEQ key token, or DELEX key IFEQ token, each followed by
 * PTTL of the waiters marker. None when no connection's server had them,
 * nor while an earlier release of l found the lock waited for (until
 * l->marked_until). */
void redislock_native_release_init(redislock_native_forms *f, redislock_lock *l);

/* The extend's: SET key token PX ttl IFEQ token. */
void redislock_native_extend_init(redislock_native_forms *f, redislock_lock *l, zend_long ttl);

void redislock_native_forms_free(redislock_native_forms *f);

/* A native release whose compare-and-delete the server refused (an ACL
 * without it, WRONGTYPE) fails as that refusal, as the script's would,
 * whatever the commands behind it answered. */
void redislock_native_settle(redislock_cmd *cmds, uint32_t n);

/* Counts a server's answer to the release: the script's 1 or 0, or the
 * native compare-and-delete's. */
int redislock_native_vote_release(const redislock_cmd *cmd);

/* Counts a server's answer to the extend: the script's 1 or 0, or SET
 * IFEQ's OK or nil. */
int redislock_native_vote_extend(const redislock_cmd *cmd);

/* After a release round: wakes the waiters on each server where the
 * native compare-and-delete deleted our key and found the lock marked as
 * waited for (what the release script does in the same step), and notes in
 * l->marked_until how long the lock stays marked. */
void redislock_native_release_wake(redislock_lock *l, const redislock_cmd *cmds, uint32_t n);

#endif /* REDISLOCK_NATIVE_H */
