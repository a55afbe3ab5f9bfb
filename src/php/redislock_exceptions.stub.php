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
     * Unreachable, connection lost or no reply in time: the outcome is unknown (ConnectionException).
     * @var int
     * @cvalue REDISLOCK_E_CONNECTION
     */
    public const CONNECTION = UNKNOWN;
    /**
     * A server answered with an error (out of memory, no permission, a key of another type...).
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

/** What RedisLock and ZooKeeperLock share, so application code can be written (and mocked) against it. */
interface Lock
{
    public function acquire(int $waitMs = 0): bool;

    public function release(): bool;

    public function isAcquired(): bool;

    public function token(): ?string;

    public function fence(): ?int;

    public function run(callable $fn, int $waitMs = 0): mixed;
}

/**
 * The lock is held by someone else and the wait ran out. Nothing is known to be wrong with the
 * servers (HTTP 409, not 503).
 */
class ConflictException extends \RedisLockException {}

/**
 * A server could not be reached, the connection was lost, or a reply did not come in time: the
 * outcome of the operation is unknown; retrying later may succeed (HTTP 503, not 409).
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
