/*
 * One exchange of commands over their connections: connect, send, receive,
 * in one poll() loop for every server of it, each command with its own
 * deadline (client/io.c).
 */
#ifndef REDISLOCK_IO_H
#define REDISLOCK_IO_H

#include "client/cmd.h"

#define REDISLOCK_GRACE_US 200          /* decided early: the others get as long again as that took, and this */
/* A blocking round (BLPOP on every server of a quorum): once one server
 * answered, the others get this long. The wake-ups of one release reach
 * every server at once; one that is not there by then went to another
 * waiter (or was never pushed), and waiting on for it would only hold up
 * everyone whose wake-ups we took. */
#define REDISLOCK_BLOCK_GRACE_US 2000

/* Drives the commands (each readied on its connection) until every one has
 * its reply or failed, or its deadline passes. A reply that arrived by the
 * deadline is always read. With o->enough, once the outcome is known the
 * others get as long again as that took (and REDISLOCK_GRACE_US), then are
 * given up: a command sent whole leaves its connection owing the replies
 * (read and thrown away before the next command's,
 * redislock_conn_drain()), any other is closed; they fail as not answered
 * in time. */
void redislock_io_run(redislock_cmd **cmds, size_t n, const redislock_netopts *o);

#endif /* REDISLOCK_IO_H */
