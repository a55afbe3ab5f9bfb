<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Symfony;

use PHPUnit\Framework\TestCase;
use RedisLock\Bridge\Symfony\RedisLockStore;
use RedisLock\Bridge\Tests\Support\Child;
use RedisLock\Bridge\Tests\Support\Server;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Exception\LockReleasingException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\PersistingStoreInterface;

/**
 * The store contract Symfony checks on its own stores (the tests of AbstractStoreTestCase,
 * ExpiringStoreTestTrait and BlockingStoreTestTrait, which Debian's php-symfony-lock does not
 * ship), written again for this store, plus its own promises: keys that travel to another
 * process, options checked early.
 */
final class RedisLockStoreTest extends TestCase
{
    /** Microseconds used as the unit of the expiry tests (Symfony uses 250 ms for Redis). */
    private const CLOCK_DELAY = 250000;

    private function store(array $options = []): RedisLockStore
    {
        return new RedisLockStore(Server::options($options));
    }

    private function key(): Key
    {
        return new Key(Server::name(__CLASS__));
    }

    public function testIsABlockingStore(): void
    {
        $this->assertInstanceOf(PersistingStoreInterface::class, $this->store());
        $this->assertInstanceOf(BlockingStoreInterface::class, $this->store());
    }

    public function testSave(): void
    {
        $store = $this->store();
        $key = $this->key();

        $this->assertFalse($store->exists($key));
        $store->save($key);
        $this->assertTrue($store->exists($key));
        $store->delete($key);
        $this->assertFalse($store->exists($key));
    }

    public function testSaveWithDifferentResources(): void
    {
        $store = $this->store();
        $key1 = $this->key();
        $key2 = $this->key();

        $store->save($key1);
        $this->assertTrue($store->exists($key1));
        $this->assertFalse($store->exists($key2));
        $store->save($key2);
        $this->assertTrue($store->exists($key1));
        $this->assertTrue($store->exists($key2));
        $store->delete($key1);
        $this->assertFalse($store->exists($key1));
        $this->assertTrue($store->exists($key2));
        $store->delete($key2);
        $this->assertFalse($store->exists($key2));
    }

    public function testSaveWithDifferentKeysOnSameResources(): void
    {
        $store = $this->store();
        $resource = Server::name(__FUNCTION__);
        $key1 = new Key($resource);
        $key2 = new Key($resource);

        $store->save($key1);
        try {
            $store->save($key2);
            $this->fail('The store saved a second key on a held resource');
        } catch (LockConflictedException $e) {
        }
        $this->assertTrue($store->exists($key1), 'a refused attempt must not disturb the holder');
        $this->assertFalse($store->exists($key2));

        $store->delete($key1);
        $store->save($key2);
        $this->assertFalse($store->exists($key1));
        $this->assertTrue($store->exists($key2));
        $store->delete($key2);
    }

    public function testSaveTwice(): void
    {
        $store = $this->store(['ttl' => 2000]);
        $key = $this->key();

        $store->save($key);
        $store->save($key);
        $this->assertTrue($store->exists($key));
        $store->delete($key);
        $this->assertFalse($store->exists($key));
    }

    public function testDeleteIsolated(): void
    {
        $store = $this->store();
        $key1 = $this->key();
        $key2 = $this->key();

        $store->save($key1);
        $store->delete($key2);
        $this->assertTrue($store->exists($key1));
        $this->assertFalse($store->exists($key2));
    }

    public function testDeleteOfAKeyWhoseLockWasTakenOverLeavesTheNewHolderAlone(): void
    {
        $store = $this->store(['ttl' => 200]);
        $resource = Server::name(__FUNCTION__);
        $old = new Key($resource);
        $new = new Key($resource);

        $store->save($old);
        usleep(300000);
        $store->save($new);
        $store->delete($old);
        $this->assertTrue($store->exists($new));
        $this->assertFalse($store->exists($old));
        $old->resetLifetime(); // as Lock::refresh() does
        $this->expectException(LockConflictedException::class);
        $store->putOffExpiration($old, 1.0);
    }

    public function testInitialLeaseIsTheTtlOption(): void
    {
        $store = $this->store(['ttl' => 60000]);
        $key = $this->key();

        $store->save($key);
        $this->assertGreaterThan(50000, Server::pttl((string) $key));
        $this->assertGreaterThan(50.0, $key->getRemainingLifetime());
        $this->assertLessThanOrEqual(60.0, $key->getRemainingLifetime());
        $store->delete($key);
    }

    public function testExpiration(): void
    {
        $store = $this->store();
        $key = $this->key();

        $store->save($key);
        $store->putOffExpiration($key, 2 * self::CLOCK_DELAY / 1000000);
        $this->assertTrue($store->exists($key));
        usleep(3 * self::CLOCK_DELAY);
        $this->assertFalse($store->exists($key));
    }

    public function testAbortAfterExpiration(): void
    {
        $store = $this->store();
        $key = $this->key();

        $store->save($key);
        try {
            $store->putOffExpiration($key, 1 / 1000000);
            $this->fail('A lease that ended during the call must be reported');
        } catch (LockExpiredException $e) {
        }
        $this->assertFalse($store->exists($key));
    }

    public function testRefreshPushesExpirationBack(): void
    {
        $store = $this->store(['ttl' => 2 * self::CLOCK_DELAY / 1000]);
        $key = $this->key();

        $store->save($key);
        usleep(self::CLOCK_DELAY);
        $store->putOffExpiration($key, 4 * self::CLOCK_DELAY / 1000000);
        usleep(2 * self::CLOCK_DELAY);
        $this->assertTrue($store->exists($key), 'the refreshed lease outlasts the first one');
        usleep(3 * self::CLOCK_DELAY);
        $this->assertFalse($store->exists($key));
    }

    public function testSetExpiration(): void
    {
        $store = $this->store();
        $key = $this->key();

        $store->save($key);
        $store->putOffExpiration($key, 1);
        $this->assertGreaterThanOrEqual(0, $key->getRemainingLifetime());
        $this->assertLessThanOrEqual(1, $key->getRemainingLifetime());
        $this->assertGreaterThan(900, Server::pttl((string) $key));
        $this->assertLessThanOrEqual(1000, Server::pttl((string) $key));
        $store->delete($key);
    }

    public function testExpiredLockCleaned(): void
    {
        $store = $this->store();
        $resource = Server::name(__FUNCTION__);
        $key1 = new Key($resource);
        $key2 = new Key($resource);

        $key1->reduceLifetime(0);
        try {
            $store->save($key1);
            $this->fail('The store saved an expired key');
        } catch (LockExpiredException $e) {
        }
        $this->assertFalse($store->exists($key1));
        $store->save($key2);
        $this->assertTrue($store->exists($key2));
        $store->delete($key2);
    }

    public function testPutOffExpirationOfAKeyNeverSavedIsAConflict(): void
    {
        $this->expectException(LockConflictedException::class);
        $this->store()->putOffExpiration($this->key(), 1.0);
    }

    public function testBlockingLocks(): void
    {
        $store = $this->store();
        $key = $this->key();
        $child = new Child('symfony', ['take', (string) $key]);

        $this->assertStringStartsWith('held ', $child->readLine());
        try {
            $store->save($key);
            $this->fail('The store saved a key the other process holds');
        } catch (LockConflictedException $e) {
        }
        $child->writeLine('release-later');
        $store->waitAndSave($key);
        $this->assertTrue($store->exists($key));
        $this->assertSame('released', $child->readLine());
        $this->assertSame(0, $child->wait());
        $store->delete($key);
    }

    public function testKeyContinuedInAnotherProcess(): void
    {
        $store = $this->store(['ttl' => 10000]);
        $key = $this->key();
        $store->save($key);

        $child = new Child('symfony', ['continue', (string) $key, base64_encode(serialize($key))]);
        $this->assertSame('acquired', $child->readLine());
        $this->assertSame('refreshed', $child->readLine());
        $this->assertSame('released', $child->readLine());
        $this->assertSame(0, $child->wait());
        $this->assertFalse($store->exists($key));
        $this->assertSame(-2, Server::pttl((string) $key));
    }

    public function testKeyOutlivesTheProcessThatSavedIt(): void
    {
        $name = Server::name(__FUNCTION__);
        $child = new Child('symfony', ['take', $name]);
        $line = $child->readLine();
        $child->writeLine('end');
        $this->assertSame(0, $child->wait());

        $key = unserialize(base64_decode(substr($line, strlen('held '))));
        $this->assertInstanceOf(Key::class, $key);
        $store = $this->store();
        $this->assertTrue($store->exists($key), 'the hold ends with its lease, not with its process');
        $this->assertFalse($store->exists(new Key($name)));
        $store->putOffExpiration($key, 5.0);
        $store->delete($key);
        $this->assertFalse($store->exists($key));
    }

    public function testUnreachableServer(): void
    {
        $store = $this->store(['servers' => 'redis://127.0.0.1:' . rl_free_port(), 'connect_timeout' => 200]);
        $key = $this->key();

        // What Symfony's Lock wraps itself (in LockAcquiringException): the extension's exception as it is.
        foreach (['save' => fn () => $store->save($key), 'waitAndSave' => fn () => $store->waitAndSave($key)] as $what => $call) {
            try {
                $call();
                $this->fail("$what() must not answer when the server cannot");
            } catch (\RedisLock\ConnectionException $e) {
                $this->assertNull($e->getPrevious(), $what);
            }
        }
        $key->setState(RedisLockStore::class, str_repeat('a', 32)); // a hold taken earlier
        try {
            $store->putOffExpiration($key, 1.0);
            $this->fail('putOffExpiration() must not answer when the server cannot');
        } catch (\RedisLock\ConnectionException $e) {
        }

        // What Symfony's Lock passes on: in Symfony's terms, the extension's exception right below.
        try {
            $store->exists($key);
            $this->fail('exists() must not answer when the server cannot');
        } catch (LockStorageException $e) {
            $this->assertInstanceOf(\RedisLock\ConnectionException::class, $e->getPrevious());
        }
        try {
            $store->delete($key);
            $this->fail('delete() must not answer when the server cannot');
        } catch (LockReleasingException $e) {
            $this->assertInstanceOf(\RedisLock\ConnectionException::class, $e->getPrevious());
        }
    }

    public function testInvalidTtl(): void
    {
        $this->expectException(InvalidTtlException::class);
        $this->store(['ttl' => -1]);
    }

    public function testInvalidPutOffTtl(): void
    {
        $this->expectException(InvalidTtlException::class);
        $this->store()->putOffExpiration($this->key(), 0.0);
    }

    public function testUnknownOptionIsRefusedAtConstruction(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->store(['no_such_option' => 1]);
    }

    public function testAutoReleaseOptionIsRefused(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->store(['auto_release' => true]);
    }
}
