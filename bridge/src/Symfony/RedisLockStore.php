<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Symfony;

use RedisLock;
use RedisLock\Bridge\Lease;
use RedisLock\Bridge\Token;
use RedisLockException;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockReleasingException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\Store\ExpiringStoreTrait;

/**
 * A Symfony Lock store on the redislock extension: exclusive and read (shared) locks, blocking
 * without polling (woken by the release that frees the name), refreshed by RedisLock::extend().
 *
 * The options are RedisLock's (servers, prefix, ttl in milliseconds, timeouts, fair, ...); 'ttl'
 * is the lease a lock gets when it is saved, before Symfony's Lock refreshes it to its own ttl.
 * A Key carries only the owner token of its hold, so it can be serialized and the lock continued,
 * refreshed or released in another process. The store never releases a lock on its own
 * ('auto_release' is always off): Symfony's Lock does that when asked to.
 *
 * Errors: when the outcome is unknown (server unreachable, no reply in time, an error reply) the
 * extension's exception (a RedisLockException; RedisLock\ConnectionException when the server could
 * not be reached) leaves save(), waitAndSave() and putOffExpiration() as it is, as Symfony's RedisStore
 * lets the Redis client's exceptions through: Symfony's Lock wraps it once, in its
 * LockAcquiringException, so the cause is that exception's getPrevious() and each message is said
 * once. delete() and exists(), whose exceptions Symfony's Lock passes on unwrapped, throw
 * LockReleasingException and LockStorageException with the extension's exception as getPrevious().
 *
 * Read locks (saveRead(), waitAndSaveRead()) are RedisLock::acquireRead() holds: each key its own
 * token and lease; save() on a key that holds a read lock promotes it once it is the only one, and
 * saveRead() on a key that holds the write lock demotes it (Symfony's SharedLockInterface). One
 * server, Sentinel or Cluster: with a quorum server list saveRead() is refused by the extension.
 */
final class RedisLockStore implements BlockingStoreInterface, BlockingSharedLockStoreInterface
{
    use ExpiringStoreTrait;

    /** How long one blocking attempt waits (ms); waitAndSave() waits again until it gets the lock. */
    private const WAIT_MS = 60000;

    /** The key's state that says its hold is a read lock. */
    private const READ = self::class . ':read';

    /** @var array<string, mixed> */
    private array $options;

    /**
     * @param array<string, mixed> $options RedisLock's options (times in milliseconds)
     *
     * @throws InvalidTtlException      when 'ttl' is not positive
     * @throws InvalidArgumentException when RedisLock refuses an option, or 'auto_release' is given
     */
    public function __construct(#[\SensitiveParameter] array $options = [])
    {
        if (array_key_exists('auto_release', $options)) {
            throw new InvalidArgumentException(
                'No "auto_release" option: Symfony\'s Lock releases on destruction when $autoRelease is true.'
            );
        }
        if (is_int($options['ttl'] ?? null) && $options['ttl'] <= 0) {
            throw new InvalidTtlException(
                sprintf('"%s()" expects a strictly positive "ttl" (milliseconds). Got %d.', __METHOD__, $options['ttl'])
            );
        }
        $this->options = ['auto_release' => false] + $options;
        try {
            new RedisLock('options-check', $this->options);
        } catch (\ValueError | \TypeError $e) {
            throw new InvalidArgumentException($e->getMessage(), 0, $e);
        }
    }

    /**
     * @throws LockConflictedException when someone else holds the lock
     * @throws RedisLockException      when the outcome is unknown (Symfony's Lock wraps it)
     */
    public function save(Key $key): void
    {
        if ($this->isRead($key)) {
            $this->promote($key, 0);
            return;
        }
        if (!$this->renew($key, null) && !$this->take($key, 0)) {
            throw new LockConflictedException(sprintf('The "%s" lock is held by someone else.', $key));
        }
        $this->checkNotExpired($key);
    }

    /**
     * @throws RedisLockException when the outcome is unknown (Symfony's Lock wraps it)
     */
    public function waitAndSave(Key $key): void
    {
        if ($this->isRead($key)) {
            $this->promote($key, self::WAIT_MS);
            return;
        }
        if (!$this->renew($key, null)) {
            while (!$this->take($key, self::WAIT_MS)) {
                // the holder kept it for a whole wait: wait again
            }
        }
        $this->checkNotExpired($key);
    }

    /**
     * Takes the lock shared for the key: renews the key's read lock, demotes its write lock.
     *
     * @throws LockConflictedException when someone holds it exclusively (or a writer waits for it)
     * @throws RedisLockException      when the outcome is unknown (Symfony's Lock wraps it)
     */
    public function saveRead(Key $key): void
    {
        if (!$this->takeRead($key, 0)) {
            throw new LockConflictedException(sprintf('The "%s" lock is held exclusively by someone else.', $key));
        }
        $this->checkNotExpired($key);
    }

    /**
     * Waits (woken, not polling) until the key can be held shared, then holds it.
     *
     * @throws RedisLockException when the outcome is unknown (Symfony's Lock wraps it)
     */
    public function waitAndSaveRead(Key $key): void
    {
        while (!$this->takeRead($key, self::WAIT_MS)) {
            // a writer kept it for a whole wait: wait again
        }
        $this->checkNotExpired($key);
    }

    /**
     * @param float $ttl seconds, as everywhere in Symfony Lock
     *
     * @throws LockConflictedException when the key's hold is gone
     * @throws RedisLockException      when the outcome is unknown (Symfony's Lock wraps it)
     */
    public function putOffExpiration(Key $key, float $ttl): void
    {
        if ($ttl <= 0) {
            throw new InvalidTtlException(sprintf('"%s()" expects a strictly positive TTL. Got %s.', __METHOD__, $ttl));
        }
        $key->reduceLifetime($ttl);
        if (!$this->renew($key, Lease::fromSeconds($ttl))) {
            // a lease shorter than the clock-drift allowance is no lease: expired, not taken
            $this->checkNotExpired($key);
            throw new LockConflictedException(sprintf('The "%s" lock is not held by this key any more.', $key));
        }
        $this->checkNotExpired($key);
    }

    public function delete(Key $key): void
    {
        $hold = $this->hold($key);
        if ($hold === null) {
            return;
        }
        try {
            $hold->release();
        } catch (RedisLockException $e) {
            throw new LockReleasingException(sprintf('Failed to release the "%s" lock.', $key), 0, $e);
        }
        $key->removeState(self::class);
        $key->removeState(self::READ);
    }

    public function exists(Key $key): bool
    {
        $hold = $this->hold($key);
        if ($hold === null) {
            return false;
        }
        try {
            return $hold->isAcquired();
        } catch (RedisLockException $e) {
            throw new LockStorageException(sprintf('Failed to check the "%s" lock.', $key), 0, $e);
        }
    }

    /**
     * Resets the lease of the hold the key carries to $ttlMs (null: the store's ttl) if it is
     * still ours, and shortens the key's lifetime to what the lease has left.
     */
    private function renew(Key $key, ?int $ttlMs): bool
    {
        $hold = $this->hold($key);
        if ($hold === null) {
            return false;
        }
        $renewed = $hold->extend($ttlMs);
        if ($renewed) {
            $key->reduceLifetime($hold->remaining() / 1000);
        }

        return $renewed;
    }

    /**
     * Takes the lock for the key, waiting up to $waitMs for it; on success the key carries the
     * new hold's token and its lifetime is what the lease has left.
     */
    private function take(Key $key, int $waitMs): bool
    {
        $lock = new RedisLock((string) $key, $this->options);
        $taken = $lock->acquire($waitMs);
        if ($taken) {
            $key->setState(self::class, $lock->token());
            $key->reduceLifetime($lock->remaining() / 1000);
        }

        return $taken;
    }

    /** Whether the key carries a read lock. */
    private function isRead(Key $key): bool
    {
        return $key->hasState(self::READ) && $key->getState(self::READ) === true;
    }

    /**
     * Takes the key's lock shared, waiting up to $waitMs: a new hold, or the one the key carries
     * (renewed if it is a read lock, demoted if it is the write lock).
     */
    private function takeRead(Key $key, int $waitMs): bool
    {
        $lock = $this->hold($key) ?? new RedisLock((string) $key, $this->options);
        if (!$lock->acquireRead($waitMs)) {
            return false;
        }
        $key->setState(self::class, $lock->token());
        $key->setState(self::READ, true);
        $key->reduceLifetime($lock->remaining() / 1000);

        return true;
    }

    /** Turns the key's read lock into the write lock, waiting up to $waitMs for the other readers. */
    private function promote(Key $key, int $waitMs): void
    {
        $lock = $this->hold($key);
        // the hold is taken up as a read lock (renewed), then promoted
        if ($lock === null || !$lock->acquireRead()) {
            $key->removeState(self::READ);
            $key->removeState(self::class);
            $waitMs > 0 ? $this->waitAndSave($key) : $this->save($key);
            return;
        }
        while (!$lock->acquire($waitMs)) {
            if ($waitMs === 0) {
                throw new LockConflictedException(sprintf('The "%s" lock is read by others.', $key));
            }
        }
        $key->setState(self::class, $lock->token());
        $key->removeState(self::READ);
        $key->reduceLifetime($lock->remaining() / 1000);
        $this->checkNotExpired($key);
    }

    /** The hold the key carries (its token, in any process), or null when it carries none. */
    private function hold(Key $key): ?RedisLock
    {
        $token = $key->hasState(self::class) ? $key->getState(self::class) : null;
        if (!is_string($token) || !Token::isWellFormed($token)) {
            return null;
        }

        return RedisLock::restore((string) $key, $token, $this->options);
    }
}
