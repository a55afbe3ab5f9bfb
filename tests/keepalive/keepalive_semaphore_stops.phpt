--TEST--
Keepalive: a Semaphore hold's renewals stop at release() and when the object is destroyed (auto_release off: the hold stays and runs out at its ttl)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
use RedisLock\Semaphore;

$p = 'rltest:keepalive_semaphore_stops:';
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 2000 : 1000;
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl];
$holds = $p . 'pool:redislock-semaphore';
$probe = new Semaphore('pool', 1, $opts);

$s = new Semaphore('pool', 1, $opts + ['keepalive' => true, 'auto_release' => false]);
var_dump($s->acquire());
usleep(2 * $ttl * 1000); /* twice the ttl: renewed */
var_dump($probe->available());
unset($s);
var_dump($probe->available()); /* not released */
$before = RedisLock::stats()['keepalive_renewals'];
for ($i = 0; $i < 1000 && $probe->available() === 0; $i++) {
    usleep(10000);
}
var_dump($probe->available(), RedisLock::stats()['keepalive_renewals'] === $before); /* ran out, renewed no more */

$r = new Semaphore('pool', 1, $opts + ['keepalive' => true]);
var_dump($r->acquire(), $r->release());
$before = RedisLock::stats()['keepalive_renewals'];
usleep(2 * $ttl * 1000);
var_dump(RedisLock::stats()['keepalive_renewals'] === $before, rl_admin()->cmd('EXISTS', $holds));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_semaphore_stops:');
?>
--EXPECT--
bool(true)
int(0)
int(0)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
