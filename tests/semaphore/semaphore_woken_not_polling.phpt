--TEST--
Semaphore: a waiter sleeps on the server and is woken by a release (a forceRelease too): few commands during a long wait, not polling
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_woken:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 60000];
$a = rl_admin();
foreach (['release', 'forceRelease'] as $how) {
    $holder = new RedisLock\Semaphore("pool-$how", 1, $o);
    $held = $holder->acquire();
    $w = rl_cont_spawn(function () use ($p, $o, $how): int {
        $s = new RedisLock\Semaphore("pool-$how", 1, $o);
        $before = RedisLock::stats();
        $got = $s->acquire(20000);
        $after = RedisLock::stats();
        (new RLClient())->cmd('RPUSH', $p . "result-$how", json_encode([$got, $after['waits'] - $before['waits']]));
        return $got ? 0 : 2;
    });
    $marked = rl_cont_until(fn() => $a->cmd('EXISTS', $p . "pool-$how:redislock-semaphore:redislock-wait") === 1, 10000);
    $calls = rl_cont_calls($a);
    /* The waiter blocks; a poller would run its script many times meanwhile. */
    usleep(1500000);
    $during = rl_cont_calls($a);
    $scripts = ($during['evalsha'] ?? 0) - ($calls['evalsha'] ?? 0) + ($during['eval'] ?? 0) - ($calls['eval'] ?? 0);
    $freed = $how === 'release' ? $holder->release() : RedisLock\Semaphore::forceRelease("pool-$how", $o);
    $code = rl_cont_reap($w);
    echo "$how: ", json_encode([$held, $marked, $freed, $code]), ' scripts while blocked: ', $scripts <= 3 ? 'at most 3' : $scripts,
        ', waiter got it after ', $a->cmd('LINDEX', $p . "result-$how", '0'), " (acquired, waits that ended)\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_woken:');
?>
--EXPECT--
release: [true,true,true,0] scripts while blocked: at most 3, waiter got it after [true,1] (acquired, waits that ended)
forceRelease: [true,true,true,0] scripts while blocked: at most 3, waiter got it after [true,1] (acquired, waits that ended)
