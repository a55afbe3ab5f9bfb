--TEST--
Semaphore: the release of a hold of weight 1 is false when its lease ran out (purged by another's acquire or not), when it was forced, or when its keys were lost; true while it runs
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$p = 'rltest:sem_rel_plain:';
$o = ['servers' => RL_DSN, 'prefix' => $p];
$short = new RedisLock\Semaphore('pool', 2, $o + ['ttl' => 100]);
$long = new RedisLock\Semaphore('pool', 2, $o + ['ttl' => 10000]);

/* Ran out, left on the server (nobody purged it). */
echo 'ran out ', json_encode([$short->acquire(), usleep(200000), $short->release()]), "\n";
/* Ran out, then purged by another's acquire. */
echo 'purged ', json_encode([$short->acquire(), usleep(200000), $long->acquire(), $short->release(), $long->available()]), "\n";
echo 'live ', json_encode([$long->release(), $long->release()]), "\n";
/* Forced while its lease runs: gone. */
echo 'forced ', json_encode([$long->acquire(), RedisLock\Semaphore::forceRelease('pool', $o), $long->release()]), "\n";
/* Its keys deleted while its lease runs: gone. */
echo 'lost ', json_encode([$long->acquire(), rl_admin()->cmd('DEL', $p . 'pool:redislock-semaphore', $p . 'pool:redislock-semaphore:redislock-holder'), $long->release()]), "\n";
echo 'again ', json_encode([$long->acquire(), $short->acquire(), $long->available(), $long->release(), $short->release()]), "\n";
/* Left: the holder key ('+'), until the latest lease would have ended (the
 * plain release of a hold in the sorted set, a ZREM, does not delete it). */
echo 'keys ', json_encode(rl_admin()->cmd('KEYS', $p . '*')), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_rel_plain:');
?>
--EXPECT--
ran out [true,null,false]
purged [true,null,true,false,1]
live [true,false]
forced [true,true,false]
lost [true,1,false]
again [true,true,0,true,true]
keys ["rltest:sem_rel_plain:pool:redislock-semaphore:redislock-holder"]
