--TEST--
Semaphore: a second hold moves the one held alone (in the holder key) into the sorted set with its lease, and both are counted, weights included: never over the limit
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$p = 'rltest:sem_solo_moved:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$a = rl_admin();
$k = $p . 'pool:redislock-semaphore';
$state = fn() => json_encode([$a->cmd('GET', $k . ':redislock-holder') === '+' ? '+' : 'alone',
    (int) $a->cmd('ZCARD', $k), $a->cmd('GET', $k . ':redislock-extra-permits'), $a->cmd('PTTL', $k . ':redislock-holder') > 9000]);
$two = new RedisLock\Semaphore('pool', 4, $o + ['weight' => 2]);
$one = new RedisLock\Semaphore('pool', 4, $o);
$three = new RedisLock\Semaphore('pool', 4, $o + ['weight' => 3]);
$other = new RedisLock\Semaphore('pool', 4, $o);
echo 'alone ', json_encode([$two->acquire(), $two->available()]), ' ', $state(), "\n";
/* Weight 3 beside weight 2: over 4, refused (the one alone moved all the same). */
echo 'refused ', json_encode([$three->acquire(), $three->available()]), ' ', $state(), "\n";
echo 'second ', json_encode([$one->acquire(), $one->available()]), ' ', $state(), "\n";
echo 'third ', json_encode([$other->acquire(), $other->available(), (new RedisLock\Semaphore('pool', 4, $o))->acquire()]), "\n";
echo 'released ', json_encode([$two->release(), $one->available(), $three->acquire(), $three->available()]), ' ', $state(), "\n";
echo json_encode([$one->release(), $other->release(), $three->release(), $two->release()]), "\n";

/* A weight-1 hold alone, a weighted one joins it. */
$w1 = new RedisLock\Semaphore('pool2', 3, $o);
$w3 = new RedisLock\Semaphore('pool2', 3, $o + ['weight' => 3]);
$w2 = new RedisLock\Semaphore('pool2', 3, $o + ['weight' => 2]);
echo 'mixed ', json_encode([$w1->acquire(), $w3->acquire(), $w2->acquire(), $w2->available()]), "\n";
echo json_encode([$w1->release(), $w2->release()]), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_solo_moved:');
?>
--EXPECT--
alone [true,2] ["alone",0,null,true]
refused [false,2] ["+",1,"1",true]
second [true,1] ["+",2,"1",true]
third [true,0,false]
released [true,2,false,2] ["+",2,null,true]
[true,true,false,false]
mixed [true,false,true,0]
[true,true]
