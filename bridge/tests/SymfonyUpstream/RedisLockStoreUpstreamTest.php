<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\SymfonyUpstream;

use RedisLock\Bridge\Symfony\RedisLockStore;
use RedisLock\Bridge\Tests\Support\Server;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Tests\Store\AbstractStoreTestCase;
use Symfony\Component\Lock\Tests\Store\BlockingStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\ExpiringStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\SharedLockStoreTestTrait;

/**
 * Symfony's own store tests (the ones its RedisStore runs, shared locks included, plus the blocking ones this store
 * is also subject to), taken from a checkout of symfony/lock: Debian's package and Composer's
 * dist archives leave them out. Run it with BRIDGE_PSR4='Symfony\Component\Lock\=DIR' (DIR: a
 * checkout of symfony/lock) and --testsuite symfony-upstream (see the README).
 */
final class RedisLockStoreUpstreamTest extends AbstractStoreTestCase
{
    use BlockingStoreTestTrait;
    use ExpiringStoreTestTrait;
    use SharedLockStoreTestTrait;

    protected function getClockDelay(): int
    {
        return 250000;
    }

    protected function getStore(): PersistingStoreInterface
    {
        return new RedisLockStore(Server::options());
    }
}
