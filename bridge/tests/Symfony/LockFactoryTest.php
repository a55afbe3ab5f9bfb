<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Symfony;

use PHPUnit\Framework\TestCase;
use RedisLock\Bridge\Lease;
use RedisLock\Bridge\Symfony\RedisLockStore;
use RedisLock\Bridge\Tests\Support\Child;
use RedisLock\Bridge\Tests\Support\Server;
use Symfony\Component\Lock\Exception\LockAcquiringException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockReleasingException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\Lock;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\SharedLockStoreInterface;

/**
 * Symfony's documented lock contract (LockFactory, Lock) on this store: what an application
 * switched over from RedisStore relies on.
 */
final class LockFactoryTest extends TestCase
{
    private function factory(array $options = []): LockFactory
    {
        return new LockFactory(new RedisLockStore(Server::options($options)));
    }

    public function testAcquireIsExclusiveUntilReleased(): void
    {
        $factory = $this->factory();
        $name = Server::name(__FUNCTION__);
        $a = $factory->createLock($name);
        $b = $factory->createLock($name);

        $this->assertTrue($a->acquire());
        $this->assertTrue($a->isAcquired());
        $this->assertFalse($b->acquire());
        $this->assertFalse($b->isAcquired());
        $this->assertTrue($a->acquire(), 'acquiring again a lock one holds succeeds');
        $a->release();
        $this->assertFalse($a->isAcquired());
        $this->assertTrue($b->acquire());
        $b->release();
    }

    public function testTtlOfTheLockIsTheLease(): void
    {
        $lock = $this->factory()->createLock($name = Server::name(__FUNCTION__), 30.0);

        $this->assertTrue($lock->acquire());
        $this->assertGreaterThan(25000, Server::pttl($name));
        $this->assertGreaterThan(25.0, $lock->getRemainingLifetime());
        $lock->release();
    }

    public function testBlockingAcquireWaitsForTheRelease(): void
    {
        $name = Server::name(__FUNCTION__);
        $child = new Child('symfony', ['take', $name]);
        $this->assertStringStartsWith('held ', $child->readLine());
        $lock = $this->factory()->createLock($name);

        $this->assertFalse($lock->acquire());
        $child->writeLine('release-later');
        $this->assertTrue($lock->acquire(true));
        $this->assertSame('released', $child->readLine());
        $this->assertSame(0, $child->wait());
        $this->assertTrue($lock->isAcquired());
        $lock->release();
    }

    public function testExpiredLockCanBeTakenAndItsFormerHolderTouchesNothing(): void
    {
        $factory = $this->factory();
        $name = Server::name(__FUNCTION__);
        $first = $factory->createLock($name, 0.3);
        $second = $factory->createLock($name, 10.0);

        $this->assertTrue($first->acquire());
        usleep(400000);
        $this->assertTrue($first->isExpired());
        $this->assertFalse($first->isAcquired());
        $this->assertTrue($second->acquire());
        $first->release();
        $this->assertTrue($second->isAcquired(), 'releasing an expired lock leaves the new holder alone');
        try {
            $first->refresh();
            $this->fail('Refreshing a lock someone else now holds must fail');
        } catch (LockConflictedException $e) {
        }
        $this->assertTrue($second->isAcquired());
        $second->release();
    }

    public function testRefreshExtendsTheLease(): void
    {
        $lock = $this->factory()->createLock($name = Server::name(__FUNCTION__), 0.3);

        $this->assertTrue($lock->acquire());
        $lock->refresh(5.0);
        $this->assertGreaterThan(4.0, $lock->getRemainingLifetime());
        $this->assertGreaterThan(4000, Server::pttl($name));
        usleep(400000);
        $this->assertFalse($lock->isExpired());
        $this->assertTrue($lock->isAcquired());
        $lock->release();
    }

    public function testTtlBeyondTheExtensionsLongestIsCutToIt(): void
    {
        $lock = $this->factory()->createLock($name = Server::name(__FUNCTION__), 30 * 86400.0);

        $this->assertTrue($lock->acquire());
        $this->assertGreaterThan(Lease::MAX_MS - 60000, Server::pttl($name));
        $this->assertLessThanOrEqual(Lease::MAX_MS / 1000, $lock->getRemainingLifetime());
        $lock->release();
    }

    public function testLockIsReleasedWhenItsObjectIsDestroyed(): void
    {
        $factory = $this->factory();
        $name = Server::name(__FUNCTION__);
        $lock = $factory->createLock($name);
        $this->assertTrue($lock->acquire());
        unset($lock);

        $this->assertSame(-2, Server::pttl($name));
        $this->assertTrue($factory->createLock($name)->acquire());
    }

    public function testLockWithoutAutoReleaseOutlivesItsObject(): void
    {
        $factory = $this->factory();
        $name = Server::name(__FUNCTION__);
        $lock = $factory->createLock($name, 10.0, false);
        $this->assertTrue($lock->acquire());
        unset($lock);

        $this->assertFalse($factory->createLock($name)->acquire());
    }

    public function testReadLocksAreShared(): void
    {
        $factory = $this->factory();
        $name = Server::name(__FUNCTION__);
        $a = $factory->createLock($name);
        $b = $factory->createLock($name);
        $w = $factory->createLock($name);

        $this->assertInstanceOf(SharedLockStoreInterface::class, new RedisLockStore(Server::options()));
        $this->assertTrue($a->acquireRead());
        $this->assertTrue($b->acquireRead(), 'two read locks at once');
        $this->assertFalse($w->acquire(), 'no write lock while read');
        $this->assertFalse($a->acquire(), 'no promotion while another reads');
        $this->assertTrue($a->isAcquired());
        $b->release();
        $this->assertTrue($a->acquire(), 'promoted once alone');
        $this->assertFalse($b->acquireRead());
        $this->assertTrue($a->acquireRead(), 'demoted');
        $this->assertTrue($b->acquireRead());
        $a->release();
        $b->release();
        $this->assertTrue($w->acquire());
        $w->release();
    }

    /** A read lock's key, serialized, is refreshed and released by another process. */
    public function testReadLockKeyAcrossProcesses(): void
    {
        $store = new RedisLockStore(Server::options());
        $name = Server::name(__FUNCTION__);
        $key = new Key($name);
        $store->saveRead($key);
        $copy = unserialize(serialize($key));
        $store->putOffExpiration($copy, 5.0);
        $this->assertTrue($store->exists($copy));
        $store->delete($copy);
        $this->assertFalse($store->exists($key));
        $this->assertTrue((new LockFactory($store))->createLock($name)->acquire());
    }

    /**
     * A server that cannot be reached, through Symfony's Lock: one Symfony exception, whose
     * getPrevious() is the extension's (RedisLock\ConnectionException: a 503, not a 409), and no
     * message said twice.
     */
    public function testUnreachableServerIsOneExceptionDeep(): void
    {
        $store = new RedisLockStore(Server::options(['servers' => 'redis://127.0.0.1:' . rl_free_port(), 'connect_timeout' => 200]));
        $name = Server::name(__FUNCTION__);
        $lock = (new LockFactory($store))->createLock($name);
        $held = new Key($name);
        $held->setState(RedisLockStore::class, str_repeat('a', 32)); // a hold taken earlier
        $continued = new Lock($held, $store, 30.0, false);

        $calls = [
            'acquire()' => [LockAcquiringException::class, fn () => $lock->acquire()],
            'acquire(true)' => [LockAcquiringException::class, fn () => $lock->acquire(true)],
            'refresh()' => [LockAcquiringException::class, fn () => $continued->refresh()],
            'isAcquired()' => [LockStorageException::class, fn () => $continued->isAcquired()],
            'release()' => [LockReleasingException::class, fn () => $continued->release()],
        ];
        foreach ($calls as $what => [$class, $call]) {
            try {
                $call();
                $this->fail("$what must not answer when the server cannot");
            } catch (\Exception $e) {
                $this->assertInstanceOf($class, $e, $what);
                $cause = $e->getPrevious();
                $this->assertInstanceOf(\RedisLock\ConnectionException::class, $cause, $what);
                $this->assertNull($cause->getPrevious(), $what);
                $this->assertStringContainsString('Connection refused', $cause->getMessage(), $what);
                $this->assertStringNotContainsString($cause->getMessage(), $e->getMessage(), $what);
            }
        }
    }
}
