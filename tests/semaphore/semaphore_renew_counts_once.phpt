--TEST--
Semaphore: acquire() by a holder while permits are free renews its hold without taking its permits again
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$o = ['servers' => RL_DSN, 'prefix' => 'rltest:sem_renew_once:'];
$a = new RedisLock\Semaphore('pool', 4, $o);
$b = new RedisLock\Semaphore('pool', 4, $o + ['weight' => 2]);
$c = new RedisLock\Semaphore('pool', 4, $o);
echo json_encode([$a->acquire(), $b->acquire()]), ', available ', $a->available(), "\n";
$t = $a->token();
echo 'renewed ', json_encode([$a->acquire(), $a->token() === $t]), ', available ', $a->available(), "\n";
echo 'the last permit ', json_encode($c->acquire()), ', available ', $a->available(), "\n";
echo json_encode([$a->release(), $b->release(), $c->release()]), "\n";
/* Left: the holder key ('+'), until the latest lease would have ended (the
 * plain release of a hold in the sorted set, a ZREM, does not delete it). */
echo 'keys ', json_encode(rl_admin()->cmd('KEYS', 'rltest:sem_renew_once:*')), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_renew_once:');
?>
--EXPECT--
[true,true], available 1
renewed [true,true], available 1
the last permit true, available 0
[true,true,true]
keys ["rltest:sem_renew_once:pool:redislock-semaphore:redislock-holder"]
