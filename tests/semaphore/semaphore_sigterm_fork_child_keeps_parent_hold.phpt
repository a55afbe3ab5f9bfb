--TEST--
Semaphore: a child made by fork() and killed by SIGTERM gives back its own permits, never its parent's (it inherits the object and the handler, not the hold)
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
$p = 'rltest:sem_sigterm_fork_child:';
$admin = rl_admin();
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 60000];
$sem = new RedisLock\Semaphore('pool', 5, $o + ['weight' => 2]);
$count = fn() => (new RedisLock\Semaphore('pool', 5, $o))->available();
var_dump($sem->acquire());
$pid = pcntl_fork();
if ($pid === 0) {
    /* The child's own hold is released; the parent's, in the object the
     * child inherited, is not. */
    $own = new RedisLock\Semaphore('pool', 5, $o + ['weight' => 2]);
    $own->acquire();
    sleep(30);
    exit(0);
}
rl_sigterm_until(fn() => $count() === 1);
rl_kill($pid, SIGTERM);
pcntl_waitpid($pid, $status);
echo 'child ended by signal ', pcntl_wifsignaled($status) ? pcntl_wtermsig($status) : 'none', "\n";
echo "child's permits back: ", var_export(rl_sigterm_until(fn() => $count() === 3), true), "\n";
echo "parent's kept: ", var_export($count() === 3 && $sem->isAcquired(), true), "\n";
var_dump($sem->release(), $count());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_sigterm_fork_child:');
?>
--EXPECT--
bool(true)
child ended by signal 15
child's permits back: true
parent's kept: true
bool(true)
int(5)
