/*
 * The Redis client's entry point: one exchange of commands with servers of
 * any kind (client/exec.c).
 */
#ifndef REDISLOCK_EXEC_H
#define REDISLOCK_EXEC_H

#include "client/cmd.h"

/* Sends each command to its server (opening connections as needed) and
 * gathers all replies, with one deadline of read_timeout for the lot. A
 * Sentinel or Cluster server's command goes to the node that takes it now
 * (client/route.h). With opts->enough, once the outcome is known the
 * others get as long again as that took (and REDISLOCK_GRACE_US), then are
 * given up: a command sent whole leaves its connection owing the replies
 * (read and thrown away before the next command's), any other is closed;
 * they fail as not answered in time. */
void redislock_exec(redislock_cmd *cmds, size_t n, const redislock_netopts *opts);

#endif /* REDISLOCK_EXEC_H */
