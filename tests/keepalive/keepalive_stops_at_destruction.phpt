--TEST--
Keepalive: renewals stop when the object is destroyed (auto_release off: the key stays and runs out at its ttl) and at release()
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_stops_at_destruction:';
$l = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 1000, 'keepalive' => true, 'auto_release' => false]);
var_dump($l->acquire());
usleep(2000000); /* twice the ttl: renewed */
var_dump(rl_admin()->cmd('EXISTS', $p . 'job'));
unset($l);
var_dump(rl_admin()->cmd('EXISTS', $p . 'job'));
for ($i = 0; $i < 400 && rl_admin()->cmd('EXISTS', $p . 'job') === 1; $i++) {
    usleep(10000);
}
var_dump(rl_admin()->cmd('EXISTS', $p . 'job')); /* ran out, at most a ttl after the last renewal */

$r = new RedisLock('other', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 300, 'keepalive' => true]);
var_dump($r->acquire(), $r->release());
$before = RedisLock::stats()['keepalive_renewals'];
usleep(600000);
var_dump(RedisLock::stats()['keepalive_renewals'] === $before, rl_admin()->cmd('EXISTS', $p . 'other'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_stops_at_destruction:');
?>
--EXPECT--
bool(true)
int(1)
int(1)
int(0)
bool(true)
bool(true)
bool(true)
int(0)
