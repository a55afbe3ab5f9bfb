--TEST--
Semaphore::forceRelease() frees every permit of the name; holders find out at their next isAcquired()/extend()/release(); false when nothing was held
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$o = ['servers' => RL_DSN, 'prefix' => 'rltest:sem_force:', 'ttl' => 10000];
$a = new RedisLock\Semaphore('pool', 2, $o);
$b = new RedisLock\Semaphore('pool', 2, $o);
$c = new RedisLock\Semaphore('pool', 2, $o);
echo json_encode([$a->acquire(), $b->acquire(), $c->acquire()]), "\n";
echo 'forced ', json_encode(RedisLock\Semaphore::forceRelease('pool', $o)), ', again ', json_encode(RedisLock\Semaphore::forceRelease('pool', $o)), "\n";
echo 'holders: ', json_encode([$a->isAcquired(), $a->token(), $b->extend(), $b->remaining()]), "\n";
echo 'free for others: ', json_encode([$c->acquire(), $c->available()]), ', release of a forced one ', json_encode((new RedisLock\Semaphore('pool', 2, $o))->release()), "\n";
$keys = rl_admin()->cmd('KEYS', 'rltest:sem_force:*');
sort($keys);
echo 'keys: ', json_encode($keys), "\n";
$c->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_force:');
?>
--EXPECT--
[true,true,false]
forced true, again false
holders: [false,null,false,0]
free for others: [true,1], release of a forced one false
keys: ["rltest:sem_force:pool:redislock-semaphore:redislock-holder"]
