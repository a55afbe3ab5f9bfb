--TEST--
Semaphore: a hold whose lease ran out is gone: isAcquired(), extend() and release() say false, its permits are not counted, and remaining() is 0
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$o = ['servers' => RL_DSN, 'prefix' => 'rltest:sem_expired:'];
$short = [new RedisLock\Semaphore('pool', 2, $o + ['ttl' => 200]), new RedisLock\Semaphore('pool', 2, $o + ['ttl' => 200]),
    new RedisLock\Semaphore('pool', 2, $o + ['ttl' => 200])];
$other = new RedisLock\Semaphore('pool', 2, $o + ['ttl' => 10000]);
echo json_encode([$short[0]->acquire(), $short[1]->acquire(), $short[2]->acquire(), $other->acquire(), $other->available()]), "\n";
usleep(400000);
echo 'after the lease: available ', $other->available(), ', remaining ', $short[0]->remaining(), "\n";
echo json_encode([$short[0]->isAcquired(), $short[1]->extend(), $short[2]->release()]), "\n";
echo 'two fit now ', json_encode([$other->acquire(), $short[0]->acquire(), $short[1]->acquire(), $short[2]->acquire()]), "\n";
$other->release();
$short[0]->release();
$short[1]->release();
/* Left: the holder key ('+'), until the latest lease would have ended (the
 * plain release of a hold in the sorted set, a ZREM, does not delete it). */
echo 'keys ', json_encode(rl_admin()->cmd('KEYS', 'rltest:sem_expired:*')), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_expired:');
?>
--EXPECT--
[true,true,false,false,0]
after the lease: available 2, remaining 0
[false,false,false]
two fit now [true,true,false,false]
keys ["rltest:sem_expired:pool:redislock-semaphore:redislock-holder"]
