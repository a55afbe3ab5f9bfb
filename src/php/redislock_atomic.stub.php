<?php

/**
 * @generate-class-entries
 * @generate-legacy-arginfo 80100
 */

namespace RedisLock {

/**
 * Optimistic concurrency on one Redis string key, without locks: the WATCH/MULTI/EXEC pattern
 * done in one atomic script per write.
 *
 * @strict-properties
 * @not-serializable
 */
final class Atomic
{
    /**
     * @param string $key the key's name (binary-safe); the Redis key is the prefix followed by it,
     *        at most 512 MB less 64 bytes with the prefix (longer: a ValueError)
     * @param array $options the connection options of RedisLock: servers (one server: a quorum list
     *        is a ValueError), prefix, connect_timeout, read_timeout, persistent. RedisLock's lock
     *        options (ttl, auto_release, fencing, fair, quorum_timeout) are refused with a ValueError.
     */
    public function __construct(string $key, #[\SensitiveParameter] array $options = []) {}

    /** The value (of any size Redis keeps: up to 512 MB), or null when the key is absent. */
    public function get(): ?string {}

    /**
     * Write $new (null deletes the key) only if the value is still $expected, byte for byte (null:
     * the key must be absent). One round trip. $ttlMs: the key's new expiry; null keeps the expiry
     * it has (none for a new key). true: written. false: the value was not $expected (nothing changed).
     * $expected and $new are at most 512 MB (536870912 bytes) each, what get() reads back; longer is a
     * ValueError, before anything is sent.
     */
    public function compareAndSet(?string $expected, ?string $new, ?int $ttlMs = null): bool {}

    /**
     * Read, $new = $fn($old), compareAndSet($old, $new), and on conflict start again after a short
     * random sleep, at most $retries times. $fn gets ?string and returns ?string (an int is written in
     * decimal; null deletes the key; a string over 512 MB is a ValueError). Returns the value written.
     * Out of retries: RedisLock\ConflictException.
     */
    public function update(callable $fn, int $retries = 16, ?int $ttlMs = null): ?string {}

    /**
     * Atomically add $by to the integer value (absent: 0), keeping the result within [$min, $max]
     * (null: no such bound). Returns the new value, or false (and changes nothing) when a bound would
     * be crossed. A value that is not an integer, or a sum that would overflow, throws
     * RedisLockException. $ttlMs: the key's new expiry after a change; null keeps it.
     */
    public function increment(int $by = 1, ?int $min = null, ?int $max = null, ?int $ttlMs = null): int|false {}
}

}
