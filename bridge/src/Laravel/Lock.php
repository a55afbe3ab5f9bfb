<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use Illuminate\Cache\Lock as CacheLock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use InvalidArgumentException;
use RedisLock;
use RedisLock\Bridge\Lease;
use RedisLock\Bridge\Token;

/**
 * A Laravel lock (get, block, release, owner, forceRelease) on the redislock extension; made by
 * RedisLockProvider.
 *
 * The owner is the token of the hold: owner() returns it once get() or block() took the lock,
 * and restoreLock($name, $owner) with it continues that hold anywhere. Before that, owner() is a
 * random string that owns nothing, as in Laravel. An owner of the caller's choosing (not a token)
 * can only be used to ask and release, where it owns nothing: taking the lock with it throws,
 * since the extension mints the token of every hold it takes.
 *
 * block() waits for the holder's release (no polling): betweenBlockedAttemptsSleepFor() has no
 * effect. A lock is not re-entrant, as in Laravel: get() on a lock that holds it returns false.
 */
final class Lock extends CacheLock
{
    /** @var array<string, mixed> */
    private array $options;

    private bool $chosenOwner;

    /**
     * @param int                  $seconds the lease (cut to Lease::MAX_MS); 0 or less: the 'ttl' of $options
     * @param array<string, mixed> $options RedisLock's options, 'auto_release' => false among them
     */
    public function __construct(string $name, int $seconds, ?string $owner, #[\SensitiveParameter] array $options)
    {
        parent::__construct($name, $seconds, $owner);
        $this->chosenOwner = $owner !== null && !Token::isWellFormed($owner);
        $this->options = $seconds > 0 ? ['ttl' => Lease::fromSeconds($seconds)] + $options : $options;
    }

    /**
     * One attempt to take the lock.
     *
     * @throws \RedisLockException when the outcome is unknown (server unreachable, ...)
     */
    public function acquire(): bool
    {
        return $this->take(0);
    }

    /**
     * Takes the lock, waiting up to $seconds for the holder to release it; then calls $callback
     * (if given) and releases the lock, returning what $callback returned.
     *
     * @param int|float     $seconds
     * @param callable|null $callback
     *
     * @throws LockTimeoutException when the lock is still held by someone else after $seconds
     */
    public function block($seconds, $callback = null)
    {
        if (!$this->take(max(0, (int) round($seconds * 1000)))) {
            throw new LockTimeoutException();
        }
        if (!is_callable($callback)) {
            return true;
        }
        try {
            return $callback();
        } finally {
            $this->release();
        }
    }

    /**
     * Releases the lock if this owner still holds it; false otherwise (nothing of anyone else's
     * is touched).
     */
    public function release(): bool
    {
        $hold = $this->hold();

        return $hold !== null && $hold->release();
    }

    /**
     * Renews the lease of this owner's hold to $seconds (null: the lock's own seconds; 0 or less:
     * the 'ttl' option, as lock($name, 0)); false when this owner does not hold the lock (it is
     * not taken again). Laravel 12's Lock::refresh(), here on earlier Laravels too.
     *
     * @param int|null $seconds
     *
     * @return bool
     *
     * @throws \RedisLockException when the outcome is unknown (server unreachable, ...)
     */
    public function refresh($seconds = null)
    {
        $hold = $this->hold();
        $seconds ??= $this->seconds;

        return $hold !== null && $hold->extend($seconds > 0 ? Lease::fromSeconds($seconds) : null);
    }

    /** Deletes the lock whoever holds it. */
    public function forceRelease(): void
    {
        RedisLock::forceRelease($this->name, $this->options);
    }

    /**
     * This lock's owner when it holds the lock; null otherwise (someone else's token is never
     * read back).
     *
     * @return string|null
     */
    protected function getCurrentOwner()
    {
        $hold = $this->hold();

        return $hold !== null && $hold->isAcquired() ? $this->owner : null;
    }

    /** Takes the lock within $waitMs; on success the owner becomes the new hold's token. */
    private function take(int $waitMs): bool
    {
        if ($this->chosenOwner) {
            throw new InvalidArgumentException(
                'A redislock lock cannot be taken under an owner of your choosing: pass null, read owner() once held.'
            );
        }
        $lock = new RedisLock($this->name, $this->options);
        if (!$lock->acquire($waitMs)) {
            return false;
        }
        $this->owner = (string) $lock->token();

        return true;
    }

    /** The hold this owner designates, or null when the owner is not a token. */
    private function hold(): ?RedisLock
    {
        if (!Token::isWellFormed($this->owner)) {
            return null;
        }

        return RedisLock::restore($this->name, $this->owner, $this->options);
    }
}
