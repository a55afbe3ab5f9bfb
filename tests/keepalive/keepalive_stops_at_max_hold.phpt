--TEST--
Keepalive: renewals stop max_hold ms after the grant, and the lease then runs out at its ttl
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_stops_at_max_hold:';
$l = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 600, 'keepalive' => true, 'max_hold' => 1500]);
var_dump($l->acquire());
usleep(1000000);
var_dump(rl_admin()->cmd('EXISTS', $p . 'job')); /* renewed past its ttl */
usleep(2500000); /* max_hold, then the ttl, passed */
var_dump(rl_admin()->cmd('EXISTS', $p . 'job'));
var_dump($l->remaining(), $l->isAcquired());
var_dump(RedisLock::stats()['keepalive_renewals'] >= 1, RedisLock::stats()['keepalive_renewals'] <= 8); /* every ttl/3 until max_hold */
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_stops_at_max_hold:');
?>
--EXPECT--
bool(true)
int(1)
int(0)
int(0)
bool(false)
bool(true)
bool(true)
