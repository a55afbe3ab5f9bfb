--TEST--
Semaphore: with its holds key gone (DEL, eviction), a count of weighted permits left behind is not trusted: the next acquire starts afresh
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$o = ['servers' => RL_DSN, 'prefix' => 'rltest:sem_lost_holds:'];
$a = new RedisLock\Semaphore('pool', 2, $o + ['weight' => 2]);
$b = new RedisLock\Semaphore('pool', 2, $o + ['weight' => 2]);
echo json_encode([$a->acquire(), $b->acquire()]), "\n";
rl_admin()->cmd('DEL', 'rltest:sem_lost_holds:pool:redislock-semaphore');
echo 'permits left behind ', rl_admin()->cmd('GET', 'rltest:sem_lost_holds:pool:redislock-semaphore:redislock-extra-permits'), "\n";
echo 'afresh ', json_encode([$b->acquire(), $a->isAcquired()]), ', available ', $b->available(), "\n";
echo json_encode([$b->release(), $a->release()]), "\n";
echo 'keys ', json_encode(rl_admin()->cmd('KEYS', 'rltest:sem_lost_holds:*')), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_lost_holds:');
?>
--EXPECT--
[true,false]
permits left behind 1
afresh [true,false], available 0
[true,false]
keys []
