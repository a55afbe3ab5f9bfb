--TEST--
Semaphore: once a release of an object found waiters marked, its next releases while they stay marked run the script (free and wake in one step), not plain commands; each pushes its wake-up
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_waited_script:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$a = rl_admin();
/* Another hold first, so that $s's holds go into the sorted set (a hold
 * alone in the holder key is always released by the script). */
$other = new RedisLock\Semaphore('pool', 2, $o);
$other->acquire();
$s = new RedisLock\Semaphore('pool', 2, $o);
$plain = function (callable $fn) use ($a): array {
    $before = rl_cont_calls($a);
    $r = $fn();
    $after = rl_cont_calls($a);
    return [$r, ($after['evalsha'] ?? 0) + ($after['eval'] ?? 0) - ($before['evalsha'] ?? 0) - ($before['eval'] ?? 0) > 0 ? 'script' : 'plain'];
};
echo 'nobody waits: ', json_encode([$s->acquire(), $plain(fn() => $s->release())]), "\n";
/* Waiters marked (what a refused attempt that will wait leaves). */
$a->cmd('SET', $p . 'pool:redislock-semaphore:redislock-wait', '1', 'PX', '60000');
echo 'first seen: ', json_encode([$s->acquire(), $plain(fn() => $s->release())]), "\n";
echo 'then: ', json_encode([$s->acquire(), $plain(fn() => $s->release()), $s->acquire(), $plain(fn() => $s->release())]), "\n";
echo 'wake-ups pending ', $a->cmd('LLEN', $p . 'pool:redislock-semaphore:redislock-wake'), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_waited_script:');
?>
--EXPECT--
nobody waits: [true,[true,"plain"]]
first seen: [true,[true,"plain"]]
then: [true,[true,"script"],true,[true,"script"]]
wake-ups pending 3
