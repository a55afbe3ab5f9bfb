--TEST--
Semaphore: a weighted hold renewed (extend(), or acquire() by its holder) past its first ttl keeps all its permits counted, beside holds of weight 1
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$p = 'rltest:sem_weighted_renew:';
$o = ['servers' => RL_DSN, 'prefix' => $p];
foreach (['extend', 'acquire'] as $how) {
    $big = new RedisLock\Semaphore("pool-$how", 3, $o + ['ttl' => 2000, 'weight' => 2]);
    $one = new RedisLock\Semaphore("pool-$how", 3, $o + ['ttl' => 10000]);
    $other = new RedisLock\Semaphore("pool-$how", 3, $o + ['ttl' => 10000]);
    $got = [$big->acquire(), $one->acquire()];
    if ($how === 'extend') {
        $renewed = $big->extend(8000);
        usleep(2300000);
    } else {
        /* The holder asks again: its hold renewed to its ttl, 2 s from now. */
        usleep(1200000);
        $renewed = $big->acquire();
        usleep(1200000);
    }
    echo "$how: ", json_encode([$got, $renewed, $big->isAcquired(), $other->available(), $other->acquire()]), "\n";
    $big->release();
    $one->release();
}
/* Left: the holder key ('+'), until the latest lease would have ended (the
 * plain release of a hold in the sorted set, a ZREM, does not delete it). */
$keys = rl_admin()->cmd('KEYS', $p . '*');
sort($keys);
echo 'keys ', json_encode($keys), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_weighted_renew:');
?>
--EXPECT--
extend: [[true,true],true,true,0,false]
acquire: [[true,true],true,true,0,false]
keys ["rltest:sem_weighted_renew:pool-acquire:redislock-semaphore:redislock-holder","rltest:sem_weighted_renew:pool-extend:redislock-semaphore:redislock-holder"]
