--TEST--
acquire() takes a free lock, a second holder is refused, release() frees it
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$opts = ['servers' => RL_DSN, 'prefix' => 'rltest:basic:'];
$a = new RedisLock('orders:42', $opts);
$b = new RedisLock('orders:42', $opts);

var_dump($a->acquire());
var_dump(rl_admin()->cmd('GET', 'rltest:basic:orders:42') === $a->token());
var_dump($b->acquire());
var_dump($b->token());
var_dump($a->release());
var_dump(rl_admin()->cmd('EXISTS', 'rltest:basic:orders:42'));
var_dump($a->release());
var_dump($b->acquire());
var_dump($b->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('DEL', 'rltest:basic:orders:42');
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
NULL
bool(true)
int(0)
bool(false)
bool(true)
bool(true)
