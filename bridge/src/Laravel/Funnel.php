<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Laravel;

use DateInterval;
use DateTimeInterface;
use Illuminate\Contracts\Redis\LimiterTimeoutException;
use RedisLock\Semaphore;

/**
 * Laravel's funnel (Redis::funnel(), Illuminate\Redis\Limiters\ConcurrencyLimiterBuilder) on
 * RedisLock\Semaphore: at most limit() callbacks of one name run at once, in any processes.
 * The same chain: funnel($name)->limit(3)->releaseAfter(60)->block(5)->then($callback, $failure).
 *
 * Unlike Laravel's limiter, which tries its slots one by one every 250 ms, a blocked caller sleeps
 * on the server and is woken by the release it waits for; a slot is one round trip to take and one
 * to give back, whatever the limit; and a process that dies inside the callback frees its slot
 * after releaseAfter() seconds (its own lease), as Laravel's does.
 */
final class Funnel
{
    private int $maxLocks = 1;
    private int $releaseAfterMs = 60000;
    private int $timeoutMs = 3000;

    /** @param array<string, mixed> $options RedisLock\Semaphore's options (from the provider) */
    public function __construct(private string $name, #[\SensitiveParameter] private array $options)
    {
    }

    /** How many callbacks of the name may run at once. */
    public function limit(int $maxLocks): self
    {
        $this->maxLocks = $maxLocks;

        return $this;
    }

    /** How long a slot lasts when its holder never gives it back (seconds, or a date or interval). */
    public function releaseAfter(DateTimeInterface|DateInterval|int $releaseAfter): self
    {
        if ($releaseAfter instanceof DateInterval) {
            $releaseAfter = (new \DateTimeImmutable())->add($releaseAfter);
        }
        $seconds = $releaseAfter instanceof DateTimeInterface ? $releaseAfter->getTimestamp() - time() : $releaseAfter;
        $this->releaseAfterMs = max(1, $seconds) * 1000;

        return $this;
    }

    /** How long then() waits for a slot (seconds). */
    public function block(int|float $timeout): self
    {
        $this->timeoutMs = max(0, (int) round($timeout * 1000));

        return $this;
    }

    /**
     * The pause between attempts of newer Laravels (ms): no effect, a blocked caller is woken by the release
     * it waits for instead of trying again.
     */
    public function sleep(int $sleep): self
    {
        return $this;
    }

    /**
     * Runs $callback in a slot and returns what it returned; the slot is given back in all cases.
     * No slot within block(): $failure($e) when given, else the LimiterTimeoutException $e.
     *
     * @throws LimiterTimeoutException
     */
    public function then(callable $callback, ?callable $failure = null): mixed
    {
        $slot = new Semaphore($this->name, $this->maxLocks, ['ttl' => $this->releaseAfterMs] + $this->options);
        if (!$slot->acquire($this->timeoutMs)) {
            $e = new LimiterTimeoutException();
            if ($failure) {
                return $failure($e);
            }
            throw $e;
        }
        try {
            return $callback();
        } finally {
            $slot->release();
        }
    }
}
