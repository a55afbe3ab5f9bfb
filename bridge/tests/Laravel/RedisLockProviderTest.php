<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Bus\UniqueLock;
use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\Lock as CacheLock;
use Illuminate\Cache\Repository;
use Illuminate\Container\Container;
use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\LockTimeoutException;
use InvalidArgumentException;
use PHPUnit\Framework\TestCase;
use RedisLock\Bridge\Laravel\RedisLockProvider;
use RedisLock\Bridge\Lease;
use RedisLock\Bridge\Tests\Support\Child;
use RedisLock\Bridge\Tests\Support\Server;
use RedisLock\Bridge\Tests\Support\UniqueJob;

/**
 * Laravel's documented lock contract (Cache::lock(), get, block, release, owner, restoreLock,
 * forceRelease) on this provider, as Laravel's own Redis lock tests check it.
 */
final class RedisLockProviderTest extends TestCase
{
    private function provider(array $options = []): RedisLockProvider
    {
        return new RedisLockProvider(Server::options($options));
    }

    public function testIsALockProviderMakingLaravelLocks(): void
    {
        $container = new Container();
        $container->instance(LockProvider::class, $this->provider());
        $lock = $container->make(LockProvider::class)->lock(Server::name(__FUNCTION__), 10);

        $this->assertInstanceOf(CacheLock::class, $lock);
    }

    /**
     * The switch of a whole app in docs/frameworks.md: Cache::lock(), Cache::restoreLock() and the locks
     * Laravel itself takes through the cache repository (here a unique job's) go to the extension.
     */
    public function testRepositoryMacrosSendCacheLocksToTheProvider(): void
    {
        $container = new Container();
        $container->instance(LockProvider::class, $this->provider());
        Repository::macro('lock', fn (...$args) => $container->make(LockProvider::class)->lock(...$args));
        Repository::macro('restoreLock', fn (...$args) => $container->make(LockProvider::class)->restoreLock(...$args));
        try {
            $cache = new Repository(new ArrayStore());
            $name = Server::name(__FUNCTION__);
            $lock = $cache->lock($name, 10);
            $this->assertTrue($lock->get());
            $this->assertGreaterThan(5000, Server::pttl($name));
            $this->assertTrue($cache->restoreLock($name, $lock->owner())->release());

            $job = new UniqueJob(Server::name('job'));
            $this->assertTrue((new UniqueLock($cache))->acquire($job));
            $this->assertFalse((new UniqueLock($cache))->acquire($job));
            // Laravel 11 and later name the key UniqueLock::getKey(); 8 to 10 inline it
            $key = method_exists(UniqueLock::class, 'getKey') ? UniqueLock::getKey($job)
                : 'laravel_unique_job:' . UniqueJob::class . $job->uniqueId();
            $this->assertGreaterThan(50000, Server::pttl($key));
            $cache->lock($key)->forceRelease();
        } finally {
            Repository::flushMacros();
        }
    }

    public function testLocksCanBeAcquiredAndReleased(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);

        $this->assertTrue($provider->lock($name, 10)->get());
        $this->assertFalse($provider->lock($name, 10)->get());
        $provider->lock($name)->forceRelease();

        $lock = $provider->lock($name, 10);
        $this->assertTrue($lock->get());
        $this->assertFalse($provider->lock($name, 10)->get());
        $this->assertTrue($lock->release());
        $this->assertFalse($lock->release(), 'a second release finds nothing of ours');
        $this->assertTrue($provider->lock($name, 10)->get());
        $provider->lock($name)->forceRelease();
    }

    public function testLockIsNotReentrant(): void
    {
        $lock = $this->provider()->lock(Server::name(__FUNCTION__), 10);

        $this->assertTrue($lock->get());
        $this->assertFalse($lock->get());
        $this->assertTrue($lock->release());
    }

    public function testGetWithCallbackRunsItAndReleases(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);

        $this->assertSame('done', $provider->lock($name, 10)->get(fn () => 'done'));
        $this->assertTrue($provider->lock($name, 10)->get());
        $this->assertFalse($provider->lock($name, 10)->get(fn () => 'not run'));
        $provider->lock($name)->forceRelease();
    }

    public function testSecondsAreTheLease(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);

        $this->assertTrue($provider->lock($name, 30)->get());
        $this->assertGreaterThan(25000, Server::pttl($name));
        $this->assertLessThanOrEqual(30000, Server::pttl($name));
        $provider->lock($name)->forceRelease();
    }

    public function testLeaseBeyondTheExtensionsLongestIsCutToIt(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);

        $this->assertTrue($provider->lock($name, 30 * 86400)->get());
        $this->assertGreaterThan(Lease::MAX_MS - 60000, Server::pttl($name));
        $provider->lock($name)->forceRelease();
    }

    public function testZeroSecondsIsTheTtlOptionOneDayByDefault(): void
    {
        $name = Server::name(__FUNCTION__);

        $this->assertTrue($this->provider()->lock($name)->get());
        $this->assertGreaterThan(RedisLockProvider::NO_EXPIRY_TTL_MS - 60000, Server::pttl($name));
        $this->provider()->lock($name)->forceRelease();

        $this->assertTrue($this->provider(['ttl' => 5000])->lock($name, 0)->get());
        $this->assertLessThanOrEqual(5000, Server::pttl($name));
        $this->assertGreaterThan(0, Server::pttl($name));
        $this->provider()->lock($name)->forceRelease();
    }

    /** refresh() (Laravel 12's Lock): the lease of the owner's own hold, renewed; nobody else's. */
    public function testRefreshRenewsOnlyTheOwnersHold(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);
        $lock = $provider->lock($name, 10);

        $this->assertFalse($lock->refresh(), 'not held yet');
        $this->assertTrue($lock->get());
        $this->assertTrue($lock->refresh(100));
        $this->assertGreaterThan(90000, Server::pttl($name));
        $this->assertTrue($provider->restoreLock($name, $lock->owner())->refresh(60));
        $this->assertLessThanOrEqual(60000, Server::pttl($name));
        $this->assertTrue($lock->refresh());
        $this->assertLessThanOrEqual(10000, Server::pttl($name));
        $this->assertFalse($provider->lock($name, 10)->refresh(100), 'someone else\'s hold');
        $this->assertFalse($provider->lock($name, 10, 'job-7')->refresh(100), 'an owner of ones choosing');
        $this->assertLessThanOrEqual(10000, Server::pttl($name));
        $this->assertTrue($lock->release());
        $this->assertFalse($lock->refresh(), 'released');
        $this->assertSame(-2, Server::pttl($name));
    }

    public function testExpiredLockCanBeTakenAndItsFormerOwnerReleasesNothing(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);
        $first = $provider->lock($name, 1);
        $second = $provider->lock($name, 10);

        $this->assertTrue($first->get());
        usleep(1100000);
        $this->assertTrue($second->get());
        $this->assertFalse($first->release());
        $this->assertFalse($provider->lock($name, 10)->get(), 'the second owner still holds it');
        $this->assertTrue($second->release());
    }

    public function testBlockWaitsForTheRelease(): void
    {
        $name = Server::name(__FUNCTION__);
        $child = new Child('laravel', [$name]);
        $this->assertStringStartsWith('held ', $child->readLine());
        $lock = $this->provider()->lock($name, 10);

        $this->assertFalse($lock->get());
        $child->writeLine('release-later');
        $this->assertSame('result', $lock->block(10, fn () => 'result'));
        $this->assertSame('released', $child->readLine());
        $this->assertSame(0, $child->wait());
        $this->assertTrue($this->provider()->lock($name, 10)->block(0), 'block() with a callback released');
        $this->provider()->lock($name)->forceRelease();
    }

    public function testBlockGivesUpWithLockTimeoutException(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);
        $this->assertTrue($provider->lock($name, 10)->get());

        try {
            $provider->lock($name, 10)->block(1);
            $this->fail('block() must give up when the lock stays held');
        } catch (LockTimeoutException $e) {
        }
        $provider->lock($name)->forceRelease();
    }

    public function testBlockReleasesWhenTheCallbackFails(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);

        try {
            $provider->lock($name, 10)->block(1, function (): void {
                throw new \RuntimeException('failed');
            });
            $this->fail('the exception must go through');
        } catch (\RuntimeException $e) {
            $this->assertSame('failed', $e->getMessage());
        }
        $this->assertTrue($provider->lock($name, 10)->get());
        $provider->lock($name)->forceRelease();
    }

    public function testOwnerIsTheTokenAndRestoreLockReleasesWithIt(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);
        $lock = $provider->lock($name, 10);
        $before = $lock->owner();

        $this->assertTrue($lock->get());
        $owner = $lock->owner();
        $this->assertMatchesRegularExpression('/^[0-9a-f]{32}$/', $owner);
        $this->assertNotSame($before, $owner);
        $this->assertFalse($provider->restoreLock($name, $before)->release(), 'the owner before get() owns nothing');
        $this->assertFalse($provider->restoreLock($name, str_repeat('0', 32))->release());
        $this->assertFalse($provider->lock($name, 10)->get());

        $restored = $provider->restoreLock($name, $owner);
        $this->assertSame($owner, $restored->owner());
        $this->assertTrue($restored->release());
        $this->assertTrue($provider->lock($name, 10)->get());
        $provider->lock($name)->forceRelease();
    }

    public function testOwnershipCanBeCheckedAfterRestoring(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);
        $lock = $provider->lock($name, 10);
        $this->assertTrue($lock->get());

        $owner = new \ReflectionMethod($provider->restoreLock($name, $lock->owner()), 'isOwnedByCurrentProcess');
        $owner->setAccessible(true);
        $this->assertTrue($owner->invoke($provider->restoreLock($name, $lock->owner())));
        $this->assertFalse($owner->invoke($provider->restoreLock($name, str_repeat('a', 32))));
        $this->assertFalse($owner->invoke($provider->lock($name, 10)));
        $lock->release();
        $this->assertFalse($owner->invoke($lock));
    }

    public function testLockOutlivesItsObjectAndProcess(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);
        $child = new Child('laravel', [$name]);
        $line = $child->readLine();
        $child->writeLine('end');
        $this->assertSame(0, $child->wait());

        $this->assertFalse($provider->lock($name, 10)->get(), 'the hold ends with its lease, not its process');
        $this->assertTrue($provider->restoreLock($name, substr($line, strlen('held ')))->release());
        $this->assertSame(-2, Server::pttl($name));

        $lock = $provider->lock($name, 10);
        $this->assertTrue($lock->get());
        unset($lock);
        $this->assertFalse($provider->lock($name, 10)->get(), 'nor with its object');
        $provider->lock($name)->forceRelease();
    }

    public function testForceReleaseDeletesWhoeverHoldsIt(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);
        $lock = $provider->lock($name, 10);
        $this->assertTrue($lock->get());

        $provider->lock($name)->forceRelease();
        $this->assertSame(-2, Server::pttl($name));
        $this->assertFalse($lock->release());
        $this->assertTrue($provider->lock($name, 10)->get());
        $provider->lock($name)->forceRelease();
    }

    public function testAnOwnerOfOnesChoosingCannotTakeTheLock(): void
    {
        $lock = $this->provider()->lock(Server::name(__FUNCTION__), 10, 'my-owner');

        $this->assertSame('my-owner', $lock->owner());
        $this->assertFalse($lock->release());
        $this->expectException(InvalidArgumentException::class);
        $lock->get();
    }

    /** The extension's exception itself, not wrapped: the cause is what the application catches. */
    public function testUnreachableServerIsAConnectionException(): void
    {
        $provider = $this->provider(['servers' => 'redis://127.0.0.1:' . rl_free_port(), 'connect_timeout' => 200]);
        $name = Server::name(__FUNCTION__);
        $calls = [
            'get()' => fn () => $provider->lock($name, 10)->get(),
            'block()' => fn () => $provider->lock($name, 10)->block(1),
            'release()' => fn () => $provider->restoreLock($name, str_repeat('a', 32))->release(),
            'forceRelease()' => fn () => $provider->lock($name)->forceRelease(),
        ];
        foreach ($calls as $what => $call) {
            try {
                $call();
                $this->fail("$what must not answer when the server cannot");
            } catch (\RedisLock\ConnectionException $e) {
                $this->assertNull($e->getPrevious(), $what);
                $this->assertStringContainsString('Connection refused', $e->getMessage(), $what);
            }
        }
    }

    public function testOptionsAreCheckedAtConstruction(): void
    {
        try {
            $this->provider(['auto_release' => true]);
            $this->fail('auto_release must be refused');
        } catch (InvalidArgumentException $e) {
        }
        $this->expectException(\ValueError::class);
        $this->provider(['no_such_option' => 1]);
    }
}
