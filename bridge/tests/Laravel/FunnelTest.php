<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Laravel;

use Illuminate\Contracts\Redis\LimiterTimeoutException;
use PHPUnit\Framework\TestCase;
use RedisLock\Bridge\Laravel\RedisLockProvider;
use RedisLock\Bridge\Tests\Support\Server;

/**
 * Laravel's funnel (Redis::funnel()->limit()->releaseAfter()->block()->then()) through the
 * provider, on RedisLock\Semaphore: the same chain and outcomes as Laravel's
 * ConcurrencyLimiterBuilder, against Debian's laravel/framework.
 */
final class FunnelTest extends TestCase
{
    private function provider(): RedisLockProvider
    {
        return new RedisLockProvider(Server::options(['fair' => true]));
    }

    public function testAtMostLimitRunAtOnceAcrossProcesses(): void
    {
        $name = Server::name(__FUNCTION__);
        $admin = rl_admin();
        $pids = [];
        for ($i = 0; $i < 6; $i++) {
            $pid = pcntl_fork();
            if ($pid === 0) {
                $code = 1;
                try {
                    $admin = new \RLClient();
                    $code = $this->provider()->funnel($name)->limit(2)->releaseAfter(30)->block(20)->then(function () use ($admin, $name) {
                        $inside = $admin->cmd('INCR', Server::PREFIX . $name . ':inside');
                        $admin->cmd('EVAL', "if tonumber(redis.call('get', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('set', KEYS[1], ARGV[1]) end", '1', Server::PREFIX . $name . ':max', (string) $inside);
                        usleep(50000);
                        $admin->cmd('DECR', Server::PREFIX . $name . ':inside');

                        return 0;
                    });
                } catch (\Throwable $e) {
                    fwrite(STDERR, $e->getMessage() . "\n");
                }
                // The parent's buffered output is not the child's to print.
                while (ob_get_level() > 0) {
                    ob_end_clean();
                }
                exit($code);
            }
            $pids[] = $pid;
        }
        foreach ($pids as $pid) {
            pcntl_waitpid($pid, $status);
            $this->assertSame(0, pcntl_wexitstatus($status));
        }
        $this->assertSame('2', $admin->cmd('GET', Server::PREFIX . $name . ':max'));
    }

    public function testThenReturnsTheCallbacksResultAndGivesTheSlotBack(): void
    {
        $name = Server::name(__FUNCTION__);
        $provider = $this->provider();
        $this->assertSame('done', $provider->funnel($name)->limit(1)->then(fn () => 'done'));
        $this->assertSame('again', $provider->funnel($name)->limit(1)->block(0)->then(fn () => 'again'));
        try {
            $provider->funnel($name)->limit(1)->then(function () {
                throw new \RuntimeException('from the callback');
            });
        } catch (\RuntimeException $e) {
            $this->assertSame('from the callback', $e->getMessage());
        }
        $this->assertTrue($provider->funnel($name)->limit(1)->block(0)->then(fn () => true));
    }

    /** The sleep() between attempts of newer Laravels (12) is accepted in the chain (a waiter is woken instead). */
    public function testSleepIsAcceptedInTheChain(): void
    {
        $name = Server::name(__FUNCTION__);
        $funnel = $this->provider()->funnel($name)->limit(1)->releaseAfter(5)->sleep(100)->block(1);

        $this->assertSame('done', $funnel->then(fn () => 'done'));
    }

    public function testTimeoutGoesToFailureOrThrows(): void
    {
        $provider = $this->provider();
        $name = Server::name(__FUNCTION__);
        $result = $provider->funnel($name)->limit(1)->then(function () use ($provider, $name) {
            $failed = $provider->funnel($name)->limit(1)->block(0.2)->then(
                fn () => 'ran',
                fn (LimiterTimeoutException $e) => 'failure called'
            );
            try {
                $provider->funnel($name)->limit(1)->block(0)->then(fn () => 'ran');
                $thrown = 'nothing thrown';
            } catch (LimiterTimeoutException $e) {
                $thrown = 'thrown';
            }

            return [$failed, $thrown];
        });
        $this->assertSame(['failure called', 'thrown'], $result);
    }
}
