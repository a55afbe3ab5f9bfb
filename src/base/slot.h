/*
 * Redis Cluster hash slots: which of the 16384 slots a key belongs to.
 */
#ifndef REDISLOCK_SLOT_H
#define REDISLOCK_SLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CRC16-CCITT (XMODEM), the checksum Redis Cluster hashes keys with. */
uint16_t redislock_slot_crc16(const unsigned char *p, size_t len);

/* Where the hash tag of a key is (the text between the first '{' and the
 * first '}' after it, when not empty): *start and *taglen, or false when it
 * has none. */
bool redislock_slot_hash_tag(const char *key, size_t len, size_t *start, size_t *taglen);

/* The Redis Cluster hash slot of a key: CRC16 of its hash tag or of the
 * whole key, modulo 16384. */
uint16_t redislock_slot_of(const char *key, size_t len);

#endif /* REDISLOCK_SLOT_H */
