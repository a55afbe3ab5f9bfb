--TEST--
Keepalive on redis-sentinel://: an exclusive hold (and a share and a Semaphore hold) with a 500 ms ttl survives a 3 s blocking sleep, renewed on the master found through the Sentinels with the data nodes' password
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';
$s = new RLSentinels();
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 1500 : 500;
$other = ['servers' => $s->dsn(), 'prefix' => 'ka:', 'ttl' => $ttl];
$o = $other + ['keepalive' => true];
$l = new RedisLock('x', $o);
$share = new RedisLock('r', $o);
$sem = new RedisLock\Semaphore('s', 1, $o);
var_dump($l->acquire(), $share->acquireRead(), $sem->acquire());
sleep(3);
$master = $s->node($s->masterPort());
var_dump($l->isAcquired(), $master->cmd('GET', 'ka:x') === $l->token(), $master->cmd('PTTL', 'ka:x') <= $ttl);
var_dump((new RedisLock('x', $other))->acquire(), $share->isAcquired(), (new RedisLock('r', $other))->acquire());
var_dump($sem->isAcquired(), (new RedisLock\Semaphore('s', 1, $other))->available());
var_dump(RedisLock::stats()['keepalive_renewals'] >= 3, RedisLock::stats()['keepalive_lost']);
var_dump($l->release(), $share->release(), $sem->release());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
int(0)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
