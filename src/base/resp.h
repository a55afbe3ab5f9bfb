/*
 * Commands in RESP, the protocol Redis speaks: arrays of bulk strings.
 */
#ifndef REDISLOCK_RESP_H
#define REDISLOCK_RESP_H

#include "php.h"
#include "zend_smart_str.h"

/* Appends a command (argc arguments, binary-safe) to out in RESP. */
void redislock_resp_encode(smart_str *out, int argc, const char **argv, const size_t *lens);

#endif /* REDISLOCK_RESP_H */
