--TEST--
Shared holds: acquireRead() on the object's own exclusive hold demotes it (same token, fence null), and a reader waiting for the writer gets in at once
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_demote:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$o += ['fencing' => true];
$w = new RedisLock('n', $o);
var_dump($w->acquire(), $w->fence() > 0);
$t = $w->token();
$ready = RL_RUNDIR . '/shared-demote-' . getmypid();
$pid = pcntl_fork();
if ($pid === 0) {
    $r = new RedisLock('n', $o);
    touch($ready);
    $ok = $r->acquireRead(4000);
    exit($ok && $r->isShared() && $r->release() ? 0 : 1);
}
for ($i = 0; $i < 500 && !($a->cmd('EXISTS', $p . 'n:redislock-rwait') === 1); $i++) {
    usleep(5000);
}
var_dump($w->acquireRead(), $w->isShared(), $w->token() === $t, $w->fence());
pcntl_waitpid($pid, $st);
var_dump(pcntl_wexitstatus($st), $w->release());
@unlink($ready);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_demote:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
NULL
int(0)
bool(true)
