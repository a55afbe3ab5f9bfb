--TEST--
acquire(300) on a lock that stays held gives up after the wait, not before and not much after
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$readTimeout = 1000;
$opts = ['servers' => RL_DSN, 'prefix' => 'rltest:acquire_wait_deadline:', 'read_timeout' => $readTimeout];
$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());

$waiter = new RedisLock('job', $opts);
$waiter->isAcquired(); /* connect before timing */
foreach ([300, 50] as $wait) {
    $t0 = hrtime(true);
    $got = $waiter->acquire($wait);
    $ms = (hrtime(true) - $t0) / 1e6;
    var_dump($got);
    /* generous upper bound: the last attempt may start just before the deadline */
    $bound = $wait + $readTimeout + 1000;
    echo $ms >= $wait ? "waited at least $wait ms\n" : "gave up early after $ms ms\n";
    echo $ms < $bound ? "gave up in time\n" : "overran: $ms ms\n";
}
var_dump($holder->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:acquire_wait_deadline:');
?>
--EXPECT--
bool(true)
bool(false)
waited at least 300 ms
gave up in time
bool(false)
waited at least 50 ms
gave up in time
bool(true)
