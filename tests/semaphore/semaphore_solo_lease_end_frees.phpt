--TEST--
Semaphore: when the lease of a hold alone ends, the semaphore is free (a plain SET NX of the holder key takes it); members of the sorted set whose leases ended do not count and are cleared
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$p = 'rltest:sem_solo_lease_end:';
$o = ['servers' => RL_DSN, 'prefix' => $p];
$a = rl_admin();
$k = $p . 'pool:redislock-semaphore';
$short = ['ttl' => 100, 'auto_release' => false];
/* Alone, its lease ends. */
$x = new RedisLock\Semaphore('pool', 1, $o + $short);
echo 'alone ', json_encode([$x->acquire(), usleep(250000), $a->cmd('EXISTS', $k . ':redislock-holder')]), "\n";
$y = new RedisLock\Semaphore('pool', 1, $o + ['ttl' => 10000]);
echo 'taken ', json_encode([$y->acquire(), $x->isAcquired(), $x->release(), $y->release()]), "\n";

/* In the sorted set, one lease of two ends: not counted, purged. */
$ended = new RedisLock\Semaphore('pool', 3, $o + $short + ['weight' => 2]);
$long = new RedisLock\Semaphore('pool', 3, $o + ['ttl' => 10000]);
$z = new RedisLock\Semaphore('pool', 3, $o + ['ttl' => 10000, 'weight' => 2]);
echo 'set ', json_encode([$ended->acquire(), $long->acquire(), $a->cmd('ZCARD', $k), usleep(250000), $long->available(),
    $z->acquire(), $a->cmd('ZCARD', $k), $z->available(), $ended->release(), $long->release(), $z->release()]), "\n";

/* Members of ended leases left in the set with no holder key (as after a
 * loss of that key alone): a plain SET NX takes the semaphore, and they are
 * cleared when a second hold comes. */
$a->cmd('ZADD', $k, '1', 'dead:2', '2', 'dead2:1');
$a->cmd('SET', $k . ':redislock-extra-permits', '1');
$w3 = new RedisLock\Semaphore('pool', 3, $o + ['ttl' => 10000, 'weight' => 3]);
$w1 = new RedisLock\Semaphore('pool', 3, $o + ['ttl' => 10000]);
echo 'stale ', json_encode([$w3->available(), $w3->acquire(), $w3->available(), $w1->acquire(), $a->cmd('ZRANGE', $k, '0', '-1') === [$w3->token() . ':3'],
    $a->cmd('GET', $k . ':redislock-extra-permits'), $w3->release(), $w1->acquire(), $w1->available(), $w1->release()]), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_solo_lease_end:');
?>
--EXPECT--
alone [true,null,0]
taken [true,false,false,true]
set [true,true,2,null,2,true,2,0,false,true,true]
stale [3,true,0,false,true,"2",true,true,2,true]
