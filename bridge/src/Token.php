<?php

declare(strict_types=1);

namespace RedisLock\Bridge;

/**
 * The form of a redislock owner token (what RedisLock::token() returns), checked before a
 * string that came from elsewhere (a serialized key, a job's payload) is handed to
 * RedisLock::restore(), which refuses anything else with a ValueError.
 */
final class Token
{
    public static function isWellFormed(string $candidate): bool
    {
        return preg_match('/^[0-9a-f]{32}$/D', $candidate) === 1;
    }
}
