--TEST--
Keepalive: a forked child never renews its parent's hold (once the parent stops renewing it, it runs out), and the holds the child takes itself are renewed by a thread of its own
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_fork_child:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 400, 'keepalive' => true];
$l = new RedisLock('parent', $opts + ['auto_release' => false]);
var_dump($l->acquire());
/* The fork comes right after a renewal, while the thread sleeps until the
 * next: under a sanitizer runtime with no fork handlers for its allocator
 * (GCC 12's AddressSanitizer), a fork while the thread is still being set up
 * or renewing can leave the child waiting forever on a lock the thread held
 * (glibc's malloc takes its locks around fork()). */
$last = rl_admin()->cmd('PTTL', $p . 'parent');
for ($i = 0; $i < 400; $i++) {
    usleep(5000);
    $pttl = rl_admin()->cmd('PTTL', $p . 'parent');
    if ($pttl > $last) {
        break;
    }
    $last = $pttl;
}
$pid = pcntl_fork();
if ($pid === 0) {
    $threads = count(scandir('/proc/self/task')) - 2; /* the parent's thread did not come along */
    $mine = new RedisLock('child', $opts);
    $ok = $mine->acquire();
    usleep(1500000);
    $seen = [
        'threads_before' => $threads,
        'threads_after' => count(scandir('/proc/self/task')) - 2,
        'own_held' => $ok && $mine->isAcquired(),
        'parent_held_here' => $l->isAcquired(),
    ];
    (new RLClient())->cmd('SET', $p . 'seen', json_encode($seen));
    exit(0);
}
unset($l); /* the parent renews it no more: only the child could */
pcntl_waitpid($pid, $status);
echo rl_admin()->cmd('GET', $p . 'seen'), "\n";
var_dump(rl_admin()->cmd('EXISTS', $p . 'parent'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_fork_child:');
?>
--EXPECT--
bool(true)
{"threads_before":1,"threads_after":2,"own_held":true,"parent_held_here":false}
int(0)
