/*
 * The monotonic clock: for deadlines and lease validity, never the wall
 * clock.
 */
#ifndef REDISLOCK_CLOCK_H
#define REDISLOCK_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Microseconds on the monotonic clock. */
static inline uint64_t redislock_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
}

/* Milliseconds left until deadline (monotonic us), 0 when it has passed. */
static inline int64_t redislock_ms_until(uint64_t deadline)
{
    uint64_t now = redislock_now_us();

    return now < deadline ? (int64_t) ((deadline - now) / 1000) : 0;
}

#endif /* REDISLOCK_CLOCK_H */
