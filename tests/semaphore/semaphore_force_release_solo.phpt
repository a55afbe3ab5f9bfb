--TEST--
Semaphore::forceRelease() frees a hold alone in the holder key: the key is deleted, the holder finds out, and the semaphore is free for others
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$p = 'rltest:sem_force_solo:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$a = rl_admin();
$s = new RedisLock\Semaphore('pool', 1, $o);
echo json_encode([$s->acquire(), $a->cmd('GET', $p . 'pool:redislock-semaphore:redislock-holder') !== '+']), "\n";
echo 'forced ', json_encode([RedisLock\Semaphore::forceRelease('pool', $o), $a->cmd('KEYS', $p . '*'),
    RedisLock\Semaphore::forceRelease('pool', $o)]), "\n";
$t = new RedisLock\Semaphore('pool', 1, $o);
echo 'holder ', json_encode([$s->isAcquired(), $s->extend(), $s->release()]), ', free ', json_encode([$t->available(), $t->acquire(), $t->release()]), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_force_solo:');
?>
--EXPECT--
[true,true]
forced [true,[],false]
holder [false,false,false], free [1,true,true]
