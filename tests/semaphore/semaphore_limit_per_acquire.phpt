--TEST--
Semaphore: the limit that counts is the one given with each acquire; a lower one admits nobody until enough holders left, nothing held is taken back
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$o = ['servers' => RL_DSN, 'prefix' => 'rltest:sem_limit_per_acquire:', 'ttl' => 10000];
$three = [];
for ($i = 0; $i < 3; $i++) {
    $three[$i] = new RedisLock\Semaphore('pool', 3, $o);
    $three[$i]->acquire();
}
$one = new RedisLock\Semaphore('pool', 1, $o);
$five = new RedisLock\Semaphore('pool', 5, $o + ['weight' => 2]);
echo 'limit 1 while 3 held: ', json_encode($one->acquire()), ', available ', $one->available(), "\n";
echo 'limit 5, weight 2 while 3 held: ', json_encode($five->acquire()), ', available ', $five->available(), "\n";
echo 'held under limit 3 still: ', json_encode(array_map(fn($s) => $s->isAcquired(), $three)), "\n";
foreach ($three as $s) {
    $s->release();
    echo 'one left; limit 1: ', json_encode($one->acquire()), "\n";
}
$five->release();
echo 'all left; limit 1: ', json_encode($one->acquire()), ', available for 5 ', (new RedisLock\Semaphore('pool', 5, $o))->available(), "\n";
$one->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_limit_per_acquire:');
?>
--EXPECT--
limit 1 while 3 held: false, available 0
limit 5, weight 2 while 3 held: true, available 0
held under limit 3 still: [true,true,true]
one left; limit 1: false
one left; limit 1: false
one left; limit 1: false
all left; limit 1: true, available for 5 4
