<?php

/**
 * @generate-class-entries
 * @generate-legacy-arginfo 80100
 */

namespace {

/**
 * A distributed lock on one Redis server, or a quorum of independent
 * masters (Redlock) when `servers` lists several DSNs.
 *
 * @strict-properties
 * @not-serializable
 */
final class RedisLock implements RedisLock\Lock
{
    /**
     * @param string $name lock name; the Redis key is the prefix followed by it (binary-safe)
     * @param array $options per-lock settings, named like the INI entries without "redislock.":
     *        servers, prefix, ttl, connect_timeout, read_timeout, quorum_timeout, persistent, auto_release,
     *        fencing, fair, sync_replicas, tls_*, keepalive (renew the lease in the background every ttl/3
     *        while the hold lasts, an exclusive hold's or a share's), max_hold (ms after the last grant past
     *        which keepalive renews no more), native_commands (false: the scripts even where the server
     *        has native compare-and-delete and compare-and-set)
     */
    public function __construct(string $name, #[\SensitiveParameter] array $options = []) {}

    /**
     * Take the lock. $waitMs = 0: one attempt. $waitMs > 0: keep trying until that deadline.
     * true: held by this object now. false: someone else holds it and the wait ran out.
     * Throws RedisLockException when the answer is unknown.
     */
    public function acquire(int $waitMs = 0): bool {}

    /**
     * Take the lock shared (a read hold): any number of objects, in any processes, may hold it shared at
     * once; an exclusive hold (acquire()) excludes every shared one, and the reverse. $waitMs as for
     * acquire(), woken by the release that frees the name, not by polling. While an acquire() waits for
     * the name, no new shared hold is granted; the readers held back get it when the writer is done.
     * On this object's own exclusive hold: demotes it to a shared one; on its own shared hold: renews
     * its lease. Each shared holder has its own token and lease; release(), extend(), isAcquired(),
     * remaining() and token() act on it, fence() is null. acquire() on a shared hold promotes it once it
     * is the only one (waiting as a writer); when the wait runs out the shared hold stays as it was.
     * With keepalive, the share is renewed in the background as an exclusive hold is, and a promote or
     * demote switches the renewals to the hold the object has now.
     * One server, Sentinel or Cluster: a quorum server list or fair mode is a ValueError.
     * Throws RedisLock\ConnectionException when the outcome is unknown, never false.
     */
    public function acquireRead(int $waitMs = 0): bool {}

    /** true while this object's hold is a shared one; false when it is exclusive or there is none. */
    public function isShared(): bool {}

    /**
     * true: it was ours and is now deleted. false: not held by this object, or it expired / was taken over.
     * Throws RedisLockException when the outcome is unknown; the object then keeps the hold, so that
     * release() can be called again (and the end of the request tries again).
     */
    public function release(): bool {}

    /** Reset the lease to $ttlMs (default: the lock's ttl) if it is still ours. */
    public function extend(?int $ttlMs = null): bool {}

    /** Ask the server(s) whether the lock is still ours. */
    public function isAcquired(): bool {}

    /** Milliseconds of validity left by the local monotonic clock (never more than the ttl); 0 when not held. */
    public function remaining(): int {}

    /** The owner token of the current hold, or null. */
    public function token(): ?string {}

    /**
     * The fencing number of the current hold, or null (not held, or the lock was made without
     * 'fencing' => true). It grows with every grant of this lock name, so a storage layer that
     * remembers the highest number it has seen can refuse a late write from a holder whose lease ran out.
     */
    public function fence(): ?int {}

    /**
     * acquire($waitMs), call $fn(), release in all cases; returns what $fn returned.
     * Throws RedisLock\ConflictException when the lock could not be taken in time,
     * RedisLock\ReleaseException (carrying what $fn returned) when $fn completed but the release
     * failed, and Error when called on this object from inside its own run().
     */
    public function run(callable $fn, int $waitMs = 0): mixed {}

    /**
     * Per-process counters: acquired, contended, released, released_lost, extended,
     * extend_failed, auto_released, connects, reconnects, script_reloads, waits, errors, commands;
     * rate_limited (RedisLock\RateLimiter::consume() calls that returned false), atomic_conflicts
     * (RedisLock\Atomic compare-and-sets, direct or inside update(), that found the value changed),
     * atomic_retries (update() attempts after the first).
     *
     * @return array<string, int>
     */
    public static function stats(): array {}

    /**
     * An object for a hold taken earlier, maybe by another process or request, identified by its
     * token (what token() returned): release(), extend() and isAcquired() act on it; remaining() is 0
     * until extend() or isAcquired() has dated the lease again. Nothing is sent to a server here.
     * A token that is not one of ours in form (32 lowercase hex digits): ValueError.
     */
    public static function restore(string $name, #[\SensitiveParameter] string $token, #[\SensitiveParameter] array $options = []): RedisLock {}

    /**
     * Deletes the lock whoever holds it (an operator's tool), shared holds included. true: a key was
     * deleted. Waiters (writers and readers) are woken as by a release. Throws RedisLockException when the outcome is unknown.
     */
    public static function forceRelease(string $name, #[\SensitiveParameter] array $options = []): bool {}
}

}
