<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use Illuminate\Contracts\Cache\LockProvider;
use InvalidArgumentException;
use RedisLock;

/**
 * Laravel locks on the redislock extension, for code that used Cache::lock() and
 * Cache::restoreLock(): bind it as the application's LockProvider and call lock() on it.
 *
 * The options are RedisLock's (servers, prefix, timeouts in milliseconds, fair, ...). A lock
 * outlives its object and its process, as Laravel's do, until it is released or its lease ends
 * ('auto_release' is always off). Laravel's $seconds = 0 (no expiry) becomes the lease of the
 * 'ttl' option, one day unless given: a lock whose holder died is then free again in a day instead
 * of never.
 */
final class RedisLockProvider implements LockProvider
{
    /** The lease (ms) of a lock taken for 0 seconds when the options give no 'ttl': one day. */
    public const NO_EXPIRY_TTL_MS = 86400000;

    /** @var array<string, mixed> */
    private array $options;

    /**
     * @param array<string, mixed> $options RedisLock's options (times in milliseconds)
     *
     * @throws InvalidArgumentException when 'auto_release' is given
     * @throws \ValueError|\TypeError   when RedisLock refuses an option
     */
    public function __construct(#[\SensitiveParameter] array $options = [])
    {
        if (array_key_exists('auto_release', $options)) {
            throw new InvalidArgumentException(
                'No "auto_release" option: a Laravel lock outlives its object until it is released or expires.'
            );
        }
        $this->options = ['auto_release' => false] + $options + ['ttl' => self::NO_EXPIRY_TTL_MS];
        new RedisLock('options-check', $this->options);
    }

    /**
     * @param string      $name
     * @param int         $seconds the lease; 0 or less: the 'ttl' option (see the class)
     * @param string|null $owner   null for a new lock; owner() of a lock that holds it to act on that hold
     */
    public function lock($name, $seconds = 0, $owner = null): Lock
    {
        return new Lock((string) $name, (int) $seconds, $owner === null ? null : (string) $owner, $this->options);
    }

    /**
     * @param string $name
     * @param string $owner what owner() returned for the lock that took the hold
     */
    public function restoreLock($name, $owner): Lock
    {
        return $this->lock($name, 0, $owner);
    }

    /**
     * Laravel's funnel (Redis::funnel()) on RedisLock\Semaphore: at most limit() callbacks of the
     * name at once, waiters woken by the release they wait for (see Funnel).
     */
    public function funnel(string $name): Funnel
    {
        $options = array_diff_key($this->options, array_flip(['fair', 'fencing', 'quorum_timeout', 'sync_replicas', 'ttl']));

        return new Funnel($name, ['auto_release' => true] + $options);
    }
}
