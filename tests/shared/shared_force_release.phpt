--TEST--
Shared holds: forceRelease() ends every share of the name (holders find out at isAcquired/release) and wakes a waiting writer and waiting readers
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_force_release:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$r1 = new RedisLock('n', $o);
$r2 = new RedisLock('n', $o);
var_dump($r1->acquireRead(), $r2->acquireRead());
$pid = pcntl_fork();
if ($pid === 0) {
    $w = new RedisLock('n', $o + ['ttl' => 300]);
    $ok = $w->acquire(8000);
    (new RLClient())->cmd('RPUSH', 'rltest:shared_force_release:log', 'W');
    usleep(600000);
    exit($ok ? 0 : 1);
}
usleep(200000);
$t = microtime(true);
var_dump(RedisLock::forceRelease('n', $o), $r1->isAcquired(), $r2->release(), $a->cmd('EXISTS', $p . 'n:redislock-readers'));
pcntl_waitpid($pid, $st);
var_dump(pcntl_wexitstatus($st), microtime(true) - $t < 3.0);
/* A writer holds; a reader waits; forceRelease wakes the reader. */
$w = new RedisLock('n', $o + ['ttl' => 20000]);
var_dump($w->acquire());
$pid = pcntl_fork();
if ($pid === 0) {
    $r = new RedisLock('n', $o);
    exit($r->acquireRead(8000) && $r->release() ? 0 : 1);
}
usleep(200000);
var_dump(RedisLock::forceRelease('n', $o), $w->isAcquired());
pcntl_waitpid($pid, $st);
var_dump(pcntl_wexitstatus($st));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_force_release:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(false)
int(0)
