/*
 * Redis Cluster hash slots: which of the 16384 slots a key belongs to.
 */
#include "base/slot.h"

#include <string.h>

/* CRC16-CCITT (XMODEM), the checksum Redis Cluster hashes keys with. */
uint16_t redislock_slot_crc16(const unsigned char *p, size_t len)
{
    uint16_t crc = 0;

    while (len--) {
        crc ^= (uint16_t) (*p++ << 8);
        for (int i = 0; i < 8; i++) {
            crc = crc & 0x8000 ? (uint16_t) ((crc << 1) ^ 0x1021) : (uint16_t) (crc << 1);
        }
    }
    return crc;
}

/* Where the hash tag of a key is: *start and *len, or false when it has none. */
bool redislock_slot_hash_tag(const char *key, size_t len, size_t *start, size_t *taglen)
{
    const char *open = memchr(key, '{', len), *close;

    if (!open) {
        return false;
    }
    close = memchr(open + 1, '}', len - (size_t) (open + 1 - key));
    if (!close || close == open + 1) {
        return false;
    }
    *start = (size_t) (open + 1 - key);
    *taglen = (size_t) (close - open - 1);
    return true;
}

/* The slot of a key (slot.h). */
uint16_t redislock_slot_of(const char *key, size_t len)
{
    size_t start, taglen;

    if (redislock_slot_hash_tag(key, len, &start, &taglen)) {
        return redislock_slot_crc16((const unsigned char *) key + start, taglen) & 16383;
    }
    return redislock_slot_crc16((const unsigned char *) key, len) & 16383;
}
