<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Symfony;

use PHPUnit\Framework\TestCase;
use RedisLock\Bridge\Symfony\RedisLockSemaphoreStore;
use RedisLock\Bridge\Tests\Support\Server;
use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\SemaphoreFactory;

/**
 * The store contract Symfony checks on its Semaphore stores (the tests of its
 * AbstractStoreTestCase, which Debian's php-symfony-semaphore does not ship), written again for
 * this store, and Symfony's SemaphoreFactory/Semaphore over it, across processes.
 */
final class RedisLockSemaphoreStoreTest extends TestCase
{
    private function store(array $options = []): RedisLockSemaphoreStore
    {
        return new RedisLockSemaphoreStore(Server::options($options));
    }

    public function testSaveExistsAndDelete(): void
    {
        $store = $this->store();
        $key = new Key(Server::name(__CLASS__), 1);
        $this->assertFalse($store->exists($key));
        $store->save($key, 10);
        $this->assertTrue($store->exists($key));
        $store->delete($key);
        $this->assertFalse($store->exists($key));
        $store->delete($key); // nothing held: no error
    }

    public function testSaveWithDifferentResources(): void
    {
        $store = $this->store();
        $key1 = new Key(Server::name(__CLASS__), 1);
        $key2 = new Key(Server::name(__CLASS__), 1);
        $store->save($key1, 10);
        $store->save($key2, 10);
        $this->assertTrue($store->exists($key1));
        $this->assertTrue($store->exists($key2));
        $store->delete($key1);
        $this->assertFalse($store->exists($key1));
        $this->assertTrue($store->exists($key2));
        $store->delete($key2);
    }

    public function testSaveWithDifferentKeysOnSameResources(): void
    {
        $store = $this->store();
        $resource = Server::name(__CLASS__);
        $key1 = new Key($resource, 2);
        $key2 = new Key($resource, 2);
        $key3 = new Key($resource, 2);
        $store->save($key1, 10);
        $store->save($key2, 10);
        try {
            $store->save($key3, 10);
            $this->fail('a third key of a limit of 2 was saved');
        } catch (SemaphoreAcquiringException $e) {
            $this->assertFalse($store->exists($key3));
        }
        $store->delete($key1);
        $store->save($key3, 10);
        $this->assertTrue($store->exists($key3));
        $store->delete($key2);
        $store->delete($key3);
    }

    public function testSaveWithLimitAndWeight(): void
    {
        $store = $this->store();
        $resource = Server::name(__CLASS__);
        $key1 = new Key($resource, 4, 2);
        $key2 = new Key($resource, 4, 2);
        $key3 = new Key($resource, 4, 1);
        $store->save($key1, 10);
        $store->save($key2, 10);
        $this->expectException(SemaphoreAcquiringException::class);
        try {
            $store->save($key3, 10);
        } finally {
            $store->delete($key1);
            $store->delete($key2);
        }
    }

    public function testPutOffExpirationAndExpiry(): void
    {
        $store = $this->store();
        $key = new Key(Server::name(__CLASS__), 1);
        $store->save($key, 0.3);
        $store->putOffExpiration($key, 10);
        usleep(400000);
        $this->assertTrue($store->exists($key), 'the lease was renewed past its first ttl');
        $store->putOffExpiration($key, 0.2);
        usleep(300000);
        $this->assertFalse($store->exists($key), 'the lease ran out');
        $this->expectException(SemaphoreExpiredException::class);
        $store->putOffExpiration($key, 10);
    }

    public function testSaveTwiceRenews(): void
    {
        $store = $this->store();
        $key = new Key(Server::name(__CLASS__), 1);
        $store->save($key, 0.3);
        $store->save($key, 10);
        usleep(400000);
        $this->assertTrue($store->exists($key));
        $store->delete($key);
    }

    public function testOptionsCheckedEarly(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->store(['fair' => true]);
    }

    public function testNegativeTtl(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->store()->save(new Key(Server::name(__CLASS__), 1), -1);
    }

    public function testFactoryAcrossProcesses(): void
    {
        $factory = new SemaphoreFactory($this->store());
        $resource = Server::name(__CLASS__);
        $semaphore = $factory->createSemaphore($resource, 2, 1, 30.0);
        $this->assertTrue($semaphore->acquire());
        // Another process takes the last permit and dies holding it (its lease is 1 s).
        $pid = pcntl_fork();
        if ($pid === 0) {
            $s = (new SemaphoreFactory($this->store()))->createSemaphore($resource, 2, 1, 1.0, false);
            $code = $s->acquire() ? 0 : 2;
            posix_kill(getmypid(), SIGKILL);
            exit($code);
        }
        pcntl_waitpid($pid, $status);
        $third = $factory->createSemaphore($resource, 2, 1, 30.0);
        $this->assertFalse($third->acquire(), 'the dead process still holds its permit');
        usleep(1200000);
        $this->assertTrue($third->acquire(), 'its permit came free at its own ttl');
        $third->release();
        $semaphore->release();
        $this->assertFalse($semaphore->isAcquired());
    }
}
