<?php

/**
 * @generate-class-entries
 * @generate-legacy-arginfo 80100
 */

namespace {

/**
 * Every failure of the servers or of the configuration. The code says which kind it was
 * (the class constants below); the subclasses in the RedisLock namespace name the kinds a caller
 * usually treats differently.
 */
class RedisLockException extends RuntimeException
{
    /**
     * A setting could not be used (an INI value that does not parse; a quorum list naming one server
     * twice under two names).
     * @var int
     * @cvalue REDISLOCK_E_CONFIG
     */
    public const CONFIG = UNKNOWN;
    /**
     * Unreachable, connection lost, no reply in time, or refused for the server's state (a password
     * required, loading, a replica, out of memory...): trying again later may work (ConnectionException).
     * @var int
     * @cvalue REDISLOCK_E_CONNECTION
     */
    public const CONNECTION = UNKNOWN;
    /**
     * A server answered with an error about the request (no permission, a key of another type...).
     * @var int
     * @cvalue REDISLOCK_E_SERVER
     */
    public const SERVER = UNKNOWN;
    /**
     * Held by someone else and the wait ran out (ConflictException).
     * @var int
     * @cvalue REDISLOCK_E_CONFLICT
     */
    public const CONFLICT = UNKNOWN;
    /**
     * run(): the work was done but releasing the lock failed (ReleaseException).
     * @var int
     * @cvalue REDISLOCK_E_RELEASE
     */
    public const RELEASE = UNKNOWN;
}

}

namespace RedisLock {

/**
 * What RedisLock and ZooKeeperLock share, so application code can be written (and mocked) against it:
 * every method the documentation's examples call on a lock.
 */
interface Lock
{
    /**
     * Take the lock. $waitMs = 0: one attempt; > 0: keep trying until that deadline. true: held by
     * this object now; false: held elsewhere and the wait ran out.
     */
    public function acquire(int $waitMs = 0): bool;

    /** true: it was ours and is given up now. false: not held by this object (any more). */
    public function release(): bool;

    /**
     * Make sure the hold lasts: true while it is still ours (RedisLock: its lease is reset to $ttlMs,
     * by default the lock's ttl; ZooKeeperLock: its session keeps it, $ttlMs has no effect), false
     * when it is lost. $ttlMs outside 1..2147483647: ValueError.
     */
    public function extend(?int $ttlMs = null): bool;

    /** Ask the server(s) whether the hold is still ours. */
    public function isAcquired(): bool;

    /**
     * Milliseconds for which the hold is known to be ours by the local monotonic clock, without
     * asking the servers; 0 when not held. extend() renews it when the hold is still ours.
     */
    public function remaining(): int;

    /** What names the current hold, or null. */
    public function token(): ?string;

    /** The fencing number of the current hold, or null. */
    public function fence(): ?int;

    /** acquire($waitMs), call $fn(), release in all cases; returns what $fn returned. */
    public function run(callable $fn, int $waitMs = 0): mixed;
}

/**
 * The lock is held by someone else and the wait ran out. Nothing is known to be wrong with the
 * servers (HTTP 409, not 503).
 */
class ConflictException extends \RedisLockException {}

/**
 * A server could not be reached, the connection was lost, a reply did not come in time, or the server
 * refused because of its state (NOAUTH, WRONGPASS, LOADING, READONLY, OOM, BUSY...: see docs/errors.md):
 * the outcome of the operation is unknown; retrying later may succeed (HTTP 503, not 409).
 */
class ConnectionException extends \RedisLockException {}

/**
 * run(): $fn completed, but releasing the lock afterwards failed. The work is done; do not redo it.
 * The lease still ends on its own at its ttl. The message says why the release failed.
 *
 * @strict-properties
 */
final class ReleaseException extends \RedisLockException
{
    private mixed $result = null;

    /** What $fn returned. */
    public function result(): mixed {}
}

}
