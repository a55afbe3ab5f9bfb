<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\SymfonyUpstream;

use RedisLock\Bridge\Symfony\RedisLockStore;
use RedisLock\Bridge\Tests\Support\Server;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Test\AbstractStoreTestCase;
use Symfony\Component\Lock\Tests\Store\BlockingStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\ExpiringStoreTestTrait;
use Symfony\Component\Lock\Tests\Store\SharedLockStoreTestTrait;

/**
 * Symfony's own store tests (the ones its RedisStore runs, shared locks included, plus the blocking ones this store
 * is also subject to). symfony/lock ships the store test case from 7.4 on (Test/); the traits
 * are in its Tests/, which Debian's package and Composer's dist archives leave out:
 * scripts/build/frameworks.sh installs them beside the current versions, and the symfony phpt
 * runs this suite there. Otherwise run it with BRIDGE_PSR4='Symfony\Component\Lock\=DIR' (DIR:
 * a checkout of symfony/lock) and --testsuite symfony-upstream (see the README).
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
