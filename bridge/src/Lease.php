<?php

declare(strict_types=1);

namespace RedisLock\Bridge;

/**
 * A framework's lease in seconds as RedisLock's milliseconds: rounded up to a whole
 * millisecond, and cut to the longest lease the extension takes (2^31 - 1 ms, about 24.8
 * days) rather than refused, since the frameworks accept longer ones.
 */
final class Lease
{
    public const MAX_MS = 2147483647;

    public static function fromSeconds(float $seconds): int
    {
        return (int) max(1, min(self::MAX_MS, ceil($seconds * 1000)));
    }
}
