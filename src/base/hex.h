/*
 * Bytes as hex digits: tokens, waiter ids and ZooKeeper guids.
 */
#ifndef REDISLOCK_HEX_H
#define REDISLOCK_HEX_H

#include <stddef.h>

/* Writes n bytes as 2n lower-case hex digits and a NUL (tokens, guids). */
void redislock_hex(char *out, const unsigned char *raw, size_t n);

#endif /* REDISLOCK_HEX_H */
