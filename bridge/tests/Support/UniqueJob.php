<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Support;

/** A queued job that must not be queued twice (Laravel's ShouldBeUnique shape). */
final class UniqueJob
{
    public int $uniqueFor = 60;

    public function __construct(private string $id)
    {
    }

    public function uniqueId(): string
    {
        return $this->id;
    }
}
