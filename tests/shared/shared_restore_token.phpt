--TEST--
Shared holds: RedisLock::restore() of a share's token acts on that share (isAcquired, extend, release), leaving the other shares alone; a restored exclusive token stays exclusive
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_restore_token:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$x = new RedisLock('n', $o);
$y = new RedisLock('n', $o);
var_dump($x->acquireRead(), $y->acquireRead());
$rx = RedisLock::restore('n', $x->token(), $o);
var_dump($rx->isAcquired(), $rx->isShared(), $rx->extend(), $rx->remaining() > 4000, $rx->release());
var_dump($x->isAcquired(), $y->isAcquired());
$ry = RedisLock::restore('n', $y->token(), $o);
var_dump($ry->release(), $y->isAcquired(), rl_admin()->cmd('EXISTS', $p . 'n'));
$w = new RedisLock('n', $o);
var_dump($w->acquire());
$rw = RedisLock::restore('n', $w->token(), $o);
var_dump($rw->isAcquired(), $rw->isShared(), $rw->release(), $w->isAcquired());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_restore_token:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
int(0)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
