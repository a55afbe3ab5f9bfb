--TEST--
Shared holds: acquire() on a share promotes it when it is the only one (same token, a new fence); with another share it returns false keeping the share as it was, holding back nobody; with a wait it gets in once the other reader leaves
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_promote:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$o += ['fencing' => true];
$x = new RedisLock('n', $o);
$y = new RedisLock('n', $o);
var_dump($x->acquireRead(), $y->acquireRead());
$t = $x->token();
var_dump($x->acquire(), $x->isShared(), $x->token() === $t, $x->isAcquired());
/* The writer that gave up holds back nobody: a new reader gets in. */
var_dump($x->acquire(200), $x->isShared(), $x->token() === $t);
$z = new RedisLock('n', $o);
var_dump($z->acquireRead(), $z->release());
var_dump($y->release());
/* Another reader Y2, in a child, leaves after 300 ms: X, waiting as a writer, gets in. */
$pid = pcntl_fork();
if ($pid === 0) {
    $y2 = new RedisLock('n', $o);
    $ok = $y2->acquireRead();
    (new RLClient())->cmd('SET', 'rltest:shared_promote:in', '1');
    usleep(300000);
    exit($ok && $y2->release() ? 0 : 1);
}
for ($i = 0; $i < 500 && $a->cmd('GET', $p . 'in') === null; $i++) {
    usleep(5000);
}
var_dump($x->acquire(), $x->acquire(4000), $x->isShared(), $x->token() === $t, $x->fence() > 0,
    $a->cmd('GET', $p . 'n') === $t);
pcntl_waitpid($pid, $st);
var_dump(pcntl_wexitstatus($st), $z->acquireRead(), $x->release(), $z->acquireRead(), $z->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_promote:');
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
int(0)
bool(false)
bool(true)
bool(true)
bool(true)
