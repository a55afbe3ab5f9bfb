<?php

/**
 * @generate-class-entries
 * @generate-legacy-arginfo 80100
 */

namespace RedisLock {

/**
 * At most $limit permits of a name held at once, by any processes (Symfony's Semaphore, Redisson's
 * RPermitExpirableSemaphore). Each hold has its own token and its own lease: a holder that dies frees its
 * permits when its ttl runs out, without anyone releasing them; one ended by SIGTERM (php-fpm's
 * request_terminate_timeout) gives them back as it dies (auto_release on, not over TLS).
 *
 * @strict-properties
 * @not-serializable
 */
final class Semaphore
{
    /**
     * @param string $name the semaphore's name (binary-safe); its keys start with the prefix followed by it
     * @param int $limit the permits that may be held at once, 1 to 2147483647; the limit that counts is the one
     *        given with each acquire (the object's): a grant needs the permits held now, under whatever limit
     *        they were taken, plus this object's weight to fit within it
     * @param array $options the connection options of RedisLock: servers (one server, Sentinel or Cluster; a
     *        quorum list is a ValueError), prefix, connect_timeout, read_timeout, persistent, the TLS options;
     *        ttl (each hold's own lease, default redislock.ttl), auto_release, keepalive (renew the hold's
     *        lease in the background every ttl/3 while it lasts), max_hold (ms after the grant past which
     *        keepalive renews no more), and 'weight' (the permits one hold takes, 1 to $limit, default 1). RedisLock's other lock options (fair, fencing,
     *        quorum_timeout, sync_replicas) are refused with a ValueError.
     */
    public function __construct(string $name, int $limit, #[\SensitiveParameter] array $options = []) {}

    /**
     * Take `weight` permits. $waitMs = 0: one attempt; > 0: wait until that deadline, woken by a release, a
     * forceRelease() or the end of a lease, not by polling. true: held by this object now (on an object that
     * holds already: its lease is renewed). false: not enough permits free within the wait. Negative $waitMs:
     * ValueError. Unknown outcome: RedisLock\ConnectionException, never false.
     */
    public function acquire(int $waitMs = 0): bool {}

    /**
     * true: it was ours and is freed (waiters are woken). false: not held by this object, or its lease ran
     * out / was forced. Throws RedisLockException when the outcome is unknown; the object then keeps the
     * hold, so that release() can be called again.
     */
    public function release(): bool {}

    /** Reset the lease to $ttlMs (0: the object's ttl) if the hold is still ours. Negative $ttlMs: ValueError. */
    public function extend(int $ttlMs = 0): bool {}

    /** Ask the server whether the hold is still ours. */
    public function isAcquired(): bool {}

    /** Milliseconds of validity left by the local monotonic clock (never more than the ttl); 0 when not held. */
    public function remaining(): int {}

    /** The hold's token (32 lowercase hex digits), or null. */
    public function token(): ?string {}

    /**
     * Permits free now for this object's limit: the limit less the weights of the live holds (expired ones
     * are not counted), never below 0. One round trip.
     */
    public function available(): int {}

    /**
     * acquire($waitMs), call $fn(), release in all cases; returns what $fn returned.
     * Throws RedisLock\ConflictException when no permits were free in time ($fn not called),
     * RedisLock\ReleaseException (carrying what $fn returned) when $fn completed but the release
     * failed, and Error when called on this object from inside its own run().
     */
    public function run(callable $fn, int $waitMs = 0): mixed {}

    /**
     * Free every permit of the name, whoever holds them (an operator's tool); waiters are woken.
     * true: there was something to free. Holders find out at their next isAcquired()/extend()/release().
     */
    public static function forceRelease(string $name, #[\SensitiveParameter] array $options = []): bool {}
}

}
