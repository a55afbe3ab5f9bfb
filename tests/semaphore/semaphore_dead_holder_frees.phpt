--TEST--
Semaphore: a SIGKILLed holder frees its permits at its own ttl, whatever the others' ttls; a waiter gets them then, woken by the lease end the server reported (not polling)
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_dead_holder:';
$a = rl_admin();
$o = ['servers' => RL_DSN, 'prefix' => $p];
/* A long-lived holder (60 s) and one that will die with a 1.5 s lease. */
$long = new RedisLock\Semaphore('pool', 2, $o + ['ttl' => 60000]);
$long->acquire();
$child = rl_cont_spawn(function () use ($o, $p): int {
    $s = new RedisLock\Semaphore('pool', 2, $o + ['ttl' => 1500]);
    if (!$s->acquire()) {
        return 2;
    }
    (new RLClient())->cmd('SET', $p . 'held', '1');
    sleep(60);
    return 0;
});
rl_cont_until(fn() => $a->cmd('GET', $p . 'held') === '1', 10000);
rl_kill($child, SIGKILL);
$code = rl_cont_reap($child);
$t0 = hrtime(true);
$s = new RedisLock\Semaphore('pool', 2, $o + ['ttl' => 5000]);
$now = $s->acquire();
$calls = rl_cont_calls($a);
$got = $s->acquire(10000);
$ms = rl_cont_ms($t0);
$after = rl_cont_calls($a);
$scripts = ($after['evalsha'] ?? 0) - ($calls['evalsha'] ?? 0) + ($after['eval'] ?? 0) - ($calls['eval'] ?? 0);
echo 'killed ', $code, ', at once ', json_encode($now), ', within the wait ', json_encode($got),
    ', not before the dead lease ended ', json_encode($ms > 1000), ', scripts while waiting ', $scripts <= 4 ? 'few' : $scripts, "\n";
echo 'long holder still holds ', json_encode($long->isAcquired()), ', available ', $s->available(), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_dead_holder:');
?>
--EXPECT--
killed -1, at once false, within the wait true, not before the dead lease ended true, scripts while waiting few
long holder still holds true, available 0
