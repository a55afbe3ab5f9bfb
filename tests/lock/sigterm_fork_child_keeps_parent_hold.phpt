--TEST--
A child made by fork() and killed by SIGTERM never releases its parent's lock (it inherits the handler, not the holds)
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/../sigterm.inc';
$p = 'rltest:sigterm_fork_child_keeps_parent_hold:';
$admin = rl_admin();
$lock = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 60000]);
var_dump($lock->acquire());
$pid = pcntl_fork();
if ($pid === 0) {
    /* The child's own lock is released; the parent's is not. */
    $own = new RedisLock('child', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 60000]);
    $own->acquire();
    sleep(30);
    exit(0);
}
rl_sigterm_until(fn() => $admin->cmd('EXISTS', $p . 'child') === 1);
rl_kill($pid, SIGTERM);
pcntl_waitpid($pid, $status);
echo 'child ended by signal ', pcntl_wifsignaled($status) ? pcntl_wtermsig($status) : 'none', "\n";
echo "child's lock released: ", var_export(rl_sigterm_until(fn() => $admin->cmd('EXISTS', $p . 'child') === 0), true), "\n";
echo "parent's lock kept: ", var_export($admin->cmd('GET', $p . 'job') === $lock->token() && $lock->isAcquired(), true), "\n";
var_dump($lock->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sigterm_fork_child_keeps_parent_hold:');
?>
--EXPECT--
bool(true)
child ended by signal 15
child's lock released: true
parent's lock kept: true
bool(true)
