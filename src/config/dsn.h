/*
 * The grammar of one DSN (config/dsn.c), for the list parser
 * (config/servers.c). Private to those two (and the topology code).
 */
#ifndef REDISLOCK_DSN_H
#define REDISLOCK_DSN_H

#include "config/servers.h"

/* Parses one DSN [s, s+len) into *srv (zeroed by the caller). On failure
 * writes a message that never repeats the DSN into err. */
int redislock_dsn_parse_one(redislock_server *srv, const char *s, size_t len, char *err, size_t errlen);

/* Whether [s, s+len) starts with a scheme whose DSN lists several hosts
 * (Sentinel, Cluster): in a list, a comma then starts the next DSN only when
 * a scheme follows it. */
bool redislock_dsn_multi(const char *s, size_t len);

#endif /* REDISLOCK_DSN_H */
