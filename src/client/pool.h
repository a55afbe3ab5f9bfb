/*
 * The connection pool: which connection each command goes over, and one
 * exchange of commands with several servers at once, each taken as one
 * server (the I/O itself is client/io.c's; routing to Sentinel and
 * Cluster nodes sits above, in client/route.c).
 *
 * Connections are kept for the life of the process (persistent) or of the
 * request. The I/O is non-blocking and multiplexed with poll(), so one
 * command can go to several servers at once and a slow server costs at most
 * the read timeout. No zvals here.
 */
#ifndef REDISLOCK_POOL_H
#define REDISLOCK_POOL_H

#include "client/cmd.h"

#define REDISLOCK_STRIKES 3             /* a server given up this many rounds in a row ... */
#define REDISLOCK_SKIP_US 1000000       /* ... is left out of rounds that can do without it for this long */

/* Sends each command to its server (opening connections as needed) and
 * gathers all replies, with one deadline of read_timeout for the lot; every
 * server is taken as one server. With opts->enough, the exchange may end
 * before every server answered (redislock_io_run()). */
void redislock_pool_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts);

/* Closes the pooled connections to srv (its master changed). */
void redislock_pool_forget(const redislock_server *srv);

/* Drops connections left in an unknown state (a command sent, its reply
 * never read: the request was cut short). */
void redislock_pool_drop_dirty(void);

/* Request end: drops connections left in an unknown state and closes the
 * request-scoped ones. */
void redislock_pool_request_end(void);

/* Process end: closes every connection. */
void redislock_pool_shutdown(void);

/* The pool's state for phpinfo(): calls fn once per connection. */
void redislock_pool_describe(void (*fn)(const char *label, bool persistent, long pid, unsigned long long commands, void *arg), void *arg);

#endif /* REDISLOCK_POOL_H */
