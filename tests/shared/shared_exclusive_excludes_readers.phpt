--TEST--
Shared holds: an exclusive hold refuses acquireRead (one attempt, nothing changed); a negative wait is a ValueError with nothing sent
--EXTENSIONS--
redislock

--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_exclusive_excludes_readers:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$w = new RedisLock('n', $o);
$r = new RedisLock('n', $o);
var_dump($w->acquire(), $r->acquireRead(), $r->isShared(), $r->token(), $a->cmd('GET', $p . 'n') === $w->token());
try {
    $r->acquireRead(-1);
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($w->release(), $r->acquireRead(), $r->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_exclusive_excludes_readers:');
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
NULL
bool(true)
ValueError: RedisLock::acquireRead(): Argument #1 ($waitMs) must be greater than or equal to 0
bool(true)
bool(true)
bool(true)
