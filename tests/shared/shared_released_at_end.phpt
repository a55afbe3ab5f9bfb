--TEST--
Shared holds: a share is released when its object is destroyed and at the end of the request (auto_release), not with auto_release off; isShared() is false on an exclusive hold and without one
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_released_at_end:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$r = new RedisLock('n', $o);
var_dump($r->isShared(), $r->acquireRead());
unset($r);
var_dump($a->cmd('EXISTS', $p . 'n'));
$kept = new RedisLock('k', $o + ['auto_release' => false]);
var_dump($kept->acquireRead());
unset($kept);
var_dump($a->cmd('EXISTS', $p . 'k'));
$x = new RedisLock('x', $o);
var_dump($x->acquire(), $x->isShared(), $x->release());
$GLOBALS['end'] = new RedisLock('e', $o);
var_dump($GLOBALS['end']->acquireRead());
register_shutdown_function(function () {
    $GLOBALS['end2'] = new RedisLock('e2', ['servers' => RL_DSN, 'prefix' => 'rltest:shared_released_at_end:']);
    $GLOBALS['end2']->acquireRead();
});
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_released_at_end:');
?>
--EXPECT--
bool(false)
bool(true)
int(0)
bool(true)
int(1)
bool(true)
bool(false)
bool(true)
bool(true)
