--TEST--
Semaphore: a hold granted alone and moved into the sorted set by a second hold is still checked, extended and released by its object; its release after that is false
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$p = 'rltest:sem_solo_object:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 2000];
$a = rl_admin();
$k = $p . 'pool:redislock-semaphore';
foreach ([1, 2] as $weight) {
    $s = new RedisLock\Semaphore('pool', 3, $o + ['weight' => $weight]);
    $b = new RedisLock\Semaphore('pool', 3, $o);
    echo "weight $weight: ", json_encode([$s->acquire(), $a->cmd('GET', $k . ':redislock-holder') !== '+', $b->acquire(),
        $a->cmd('ZCARD', $k)]), ' ';
    echo json_encode([$s->isAcquired(), $s->extend(20000), $a->cmd('PTTL', $k . ':redislock-holder') > 10000,
        $a->cmd('PTTL', $k) > 10000, $s->available()]), ' ';
    echo json_encode([$s->release(), $s->release(), $s->isAcquired(), $b->available(), $b->release(), $b->available()]), "\n";
}
/* An acquire() by the holder renews it in the set, too. */
$s = new RedisLock\Semaphore('pool', 2, $o);
$b = new RedisLock\Semaphore('pool', 2, $o);
echo json_encode([$s->acquire(), $b->acquire(), $s->acquire(), $s->available(), $s->release(), $b->release()]), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_solo_object:');
?>
--EXPECT--
weight 1: [true,true,true,2] [true,true,true,true,1] [true,false,false,2,true,3]
weight 2: [true,true,true,2] [true,true,true,true,0] [true,false,false,2,true,3]
[true,true,true,0,true,true]
