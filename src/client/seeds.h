/*
 * The seed servers of a Sentinel or Cluster DSN (the Sentinels, a
 * cluster's seed nodes), asked directly: what Sentinel and Cluster learn
 * the topology from (client/seeds.c).
 */
#ifndef REDISLOCK_SEEDS_H
#define REDISLOCK_SEEDS_H

#include "client/cmd.h"

/* Sends one command (argc C strings, at most 4) to all seeds of srv at
 * once, encoded into buf; cmds gets the results (free with
 * redislock_cmd_dtor). Returns how many. */
uint32_t redislock_seeds_exec(const redislock_server *srv, int argc, const char **argv, redislock_cmd *cmds,
                              smart_str *buf, const redislock_netopts *o);

#endif /* REDISLOCK_SEEDS_H */
