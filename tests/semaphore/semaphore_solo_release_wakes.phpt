--TEST--
Semaphore: the release of a hold alone in the holder key wakes a waiter blocked for it
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_solo_wake:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 60000];
$a = rl_admin();
$holder = new RedisLock\Semaphore('pool', 1, $o);
echo json_encode([$holder->acquire(), $a->cmd('GET', $p . 'pool:redislock-semaphore:redislock-holder') !== '+']), "\n";
$waiter = rl_cont_spawn(function () use ($p, $o): int {
    $s = new RedisLock\Semaphore('pool', 1, $o);
    $before = RedisLock::stats();
    $got = $s->acquire(20000);
    $after = RedisLock::stats();
    (new RLClient())->cmd('RPUSH', $p . 'result', json_encode([$got, $after['waits'] - $before['waits']]));
    return $got && $s->release() ? 0 : 2;
});
$marked = rl_cont_until(fn() => $a->cmd('EXISTS', $p . 'pool:redislock-semaphore:redislock-wait') === 1, 10000);
usleep(300000); /* blocked */
echo json_encode([$marked, $holder->release(), rl_cont_reap($waiter)]), "\n";
echo 'waiter: ', json_encode($a->cmd('LRANGE', $p . 'result', '0', '-1')), " (acquired, waits that ended)\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_solo_wake:');
?>
--EXPECT--
[true,true]
[true,true,0]
waiter: ["[true,1]"] (acquired, waits that ended)
