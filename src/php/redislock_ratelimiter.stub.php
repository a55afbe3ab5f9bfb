<?php

/**
 * @generate-class-entries
 * @generate-legacy-arginfo 80100
 */

namespace RedisLock {

/**
 * A rate limit shared by every process that uses the same name and server: $limit permits per
 * $windowMs, decided on the server with the server's clock, one round trip per consume().
 *
 * @strict-properties
 * @not-serializable
 */
final class RateLimiter
{
    /**
     * @param string $name the limit's name (binary-safe); the Redis key is the prefix, the name and
     *        ":redislock-" followed by the policy
     * @param int $limit permits per window, 1 to 2147483647
     * @param int $windowMs the window in milliseconds, 1 to 2147483647
     * @param array $options 'policy' => 'gcra' (default: smooth, bursts up to $limit) | 'fixed_window'
     *        (the classic counter: INCRBY + PEXPIRE in one script) | 'sliding_window' (exact: no more
     *        than $limit in any window of $windowMs; one sorted-set member per consume() in the window,
     *        O(log n) server work per call whatever $permits), and the connection options of RedisLock: servers
     *        (one server: a quorum list is a ValueError), prefix, connect_timeout, read_timeout,
     *        persistent. RedisLock's lock options (ttl, auto_release, fencing, fair, quorum_timeout)
     *        are refused with a ValueError: they mean nothing here.
     */
    public function __construct(string $name, int $limit, int $windowMs, #[\SensitiveParameter] array $options = []) {}

    /**
     * Take $permits (1 to $limit) now. With $waitMs > 0, when they are not free now but will be
     * within $waitMs by the server's answer, sleep until they are due and take them then (no polling:
     * one more round trip each time another process took them first); never sleeps past $waitMs.
     * true: taken. false: not within the wait (returned at once when the server says they cannot be
     * due in time). Throws RedisLock\ConnectionException when the server cannot be reached or did not
     * answer in time.
     */
    public function consume(int $permits = 1, int $waitMs = 0): bool {}

    /**
     * Permits left now, as the last consume() found them (no round trip); $limit before the first
     * consume() and after reset().
     */
    public function remaining(): int {}

    /**
     * Milliseconds from the last consume() until the permits it asked for would be due (no round
     * trip), at most $windowMs; 0 when they were taken, before the first consume() and after reset().
     */
    public function retryAfter(): int {}

    /** Forget all consumption of this limit's name and policy (admin/testing). */
    public function reset(): void {}
}

}
