<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Support;

/** The test server (from the environment scripts/test.sh sets) and the options that reach it. */
final class Server
{
    public const PREFIX = 'rltest:bridge:';

    /** @return array<string, mixed> */
    public static function options(array $more = []): array
    {
        return $more + ['servers' => RL_DSN, 'prefix' => self::PREFIX];
    }

    /** A lock name no other test uses. */
    public static function name(string $test): string
    {
        return $test . ':' . bin2hex(random_bytes(6));
    }

    /** Milliseconds the server gives the lock's key to live (-2: no key). */
    public static function pttl(string $name): int
    {
        return (int) rl_admin()->cmd('PTTL', self::PREFIX . $name);
    }
}
