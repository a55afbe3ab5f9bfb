--TEST--
Keepalive: a promote (acquire() on the only share) and a demote (acquireRead() on the exclusive hold) switch the renewals to the hold the object has now, which outlives sleeps of several ttls each time
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_promote_demote:';
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 1500 : 500;
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl];
$c = rl_admin();
$l = new RedisLock('job', $opts + ['keepalive' => true]);
$other = new RedisLock('job', $opts);

var_dump($l->acquireRead());
usleep(3 * $ttl * 1000);
echo 'share: ', json_encode([$l->isShared(), rl_share_lease($c, $p . 'job', $l->token()) > 0, $other->acquire()]), "\n";

var_dump($l->acquire()); /* promote */
usleep(3 * $ttl * 1000);
echo 'promoted: ', json_encode([$l->isShared(), $c->cmd('GET', $p . 'job') === $l->token(),
    $c->cmd('PTTL', $p . 'job') <= $ttl, $other->acquireRead(), $l->isAcquired()]), "\n";

var_dump($l->acquireRead()); /* demote */
usleep(3 * $ttl * 1000);
echo 'demoted: ', json_encode([$l->isShared(), rl_share_lease($c, $p . 'job', $l->token()) > 0,
    $other->acquire(), $l->isAcquired()]), "\n";

$stats = RedisLock::stats();
var_dump($stats['keepalive_renewals'] >= 6, $stats['keepalive_lost'], $l->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_promote_demote:');
?>
--EXPECT--
bool(true)
share: [true,true,false]
bool(true)
promoted: [false,true,true,false,true]
bool(true)
demoted: [true,true,false,true]
bool(true)
int(0)
bool(true)
