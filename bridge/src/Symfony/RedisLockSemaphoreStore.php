<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Symfony;

use RedisLock\Semaphore;
use RedisLockException;
use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Exception\SemaphoreReleasingException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\PersistingStoreInterface;

/**
 * A Symfony Semaphore store on the redislock extension's RedisLock\Semaphore: each hold has its
 * own token and lease on the server's clock, so a process that dies frees its permits at its own
 * ttl, and a save costs one round trip (one script, O(log N) in the holders).
 *
 * The options are RedisLock\Semaphore's (servers: one server, Sentinel or Cluster; prefix,
 * timeouts); the Key gives the limit and the weight, Symfony's Semaphore the ttl. The store never
 * releases on its own ('auto_release' is off): Symfony's Semaphore does that on destruction when
 * its $autoRelease is true. A Key's hold lives in the Key (its state), in this process.
 *
 * Errors: when the outcome is unknown (server unreachable, no reply in time) the extension's
 * RedisLockException leaves save() and putOffExpiration() as it is, and Symfony's Semaphore wraps
 * it in its RuntimeException; delete() throws SemaphoreReleasingException.
 */
final class RedisLockSemaphoreStore implements PersistingStoreInterface
{
    /** @var array<string, mixed> */
    private array $options;

    /**
     * @param array<string, mixed> $options RedisLock\Semaphore's options (times in milliseconds)
     *
     * @throws InvalidArgumentException when RedisLock\Semaphore refuses an option, or one the Key
     *                                  and Symfony's Semaphore set is given (ttl, weight, auto_release)
     */
    public function __construct(#[\SensitiveParameter] array $options = [])
    {
        foreach (['ttl', 'weight', 'auto_release'] as $own) {
            if (array_key_exists($own, $options)) {
                throw new InvalidArgumentException(sprintf('No "%s" option: the Key and Symfony\'s Semaphore set it.', $own));
            }
        }
        $this->options = ['auto_release' => false] + $options;
        try {
            new Semaphore('options-check', 1, $this->options);
        } catch (\ValueError | \TypeError $e) {
            throw new InvalidArgumentException($e->getMessage(), 0, $e);
        }
    }

    public function save(Key $key, float $ttlInSecond): void
    {
        $ttl = self::milliseconds($ttlInSecond);
        $semaphore = $this->semaphore($key, $ttl);
        if ($semaphore->token() !== null) {
            // Saved again while held: renew the lease to the ttl asked for.
            if ($semaphore->extend($ttl)) {
                return;
            }
        }
        if (!$semaphore->acquire()) {
            throw new SemaphoreAcquiringException($key, 'not enough permits free');
        }
    }

    public function delete(Key $key): void
    {
        if (!$key->hasState(__CLASS__)) {
            return;
        }
        try {
            $key->getState(__CLASS__)->release();
        } catch (RedisLockException $e) {
            throw new SemaphoreReleasingException($key, $e->getMessage());
        }
        $key->removeState(__CLASS__);
    }

    public function exists(Key $key): bool
    {
        return $key->hasState(__CLASS__) && $key->getState(__CLASS__)->isAcquired();
    }

    public function putOffExpiration(Key $key, float $ttlInSecond): void
    {
        if (!$key->hasState(__CLASS__) || !$key->getState(__CLASS__)->extend(self::milliseconds($ttlInSecond))) {
            throw new SemaphoreExpiredException($key, 'the hold is gone');
        }
    }

    /** The Key's semaphore object, made for its limit and weight with a lease of $ttl ms. */
    private function semaphore(Key $key, int $ttl): Semaphore
    {
        if ($key->hasState(__CLASS__)) {
            return $key->getState(__CLASS__);
        }
        try {
            $semaphore = new Semaphore((string) $key, $key->getLimit(),
                ['ttl' => $ttl, 'weight' => $key->getWeight()] + $this->options);
        } catch (\ValueError $e) {
            throw new InvalidArgumentException($e->getMessage(), 0, $e);
        }
        $key->setState(__CLASS__, $semaphore);

        return $semaphore;
    }

    private static function milliseconds(float $ttlInSecond): int
    {
        if ($ttlInSecond <= 0) {
            throw new InvalidArgumentException(sprintf('The TTL should be greater than 0, "%s" given.', $ttlInSecond));
        }

        return (int) min(2147483647, max(1, ceil($ttlInSecond * 1000)));
    }
}
