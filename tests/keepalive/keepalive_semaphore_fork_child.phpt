--TEST--
Keepalive: a forked child never renews its parent's Semaphore permits (once the parent stops renewing them, they come back), and the hold the child takes itself is renewed by a thread of its own
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
use RedisLock\Semaphore;

$p = 'rltest:keepalive_semaphore_fork_child:';
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 1200 : 400;
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl, 'keepalive' => true];
$s = new Semaphore('parent', 1, $opts + ['auto_release' => false]);
var_dump($s->acquire());
/* The keepalive thread settled between two renewals before the fork (under
 * ASan, a fork while another thread is inside its allocator or is still
 * starting can hang the child). */
usleep(intdiv($ttl, 2) * 1000);
$pid = pcntl_fork();
if ($pid === 0) {
    $mine = new Semaphore('child', 1, $opts);
    $ok = $mine->acquire();
    usleep(4 * $ttl * 1000);
    $seen = [
        'own_held' => $ok && $mine->isAcquired(),
        'parent_held_here' => $s->isAcquired(),
        'parent_token_here' => $s->token(),
    ];
    (new RLClient())->cmd('SET', $p . 'seen', json_encode($seen));
    exit(0);
}
unset($s); /* the parent renews it no more: only the child could */
pcntl_waitpid($pid, $status);
echo rl_admin()->cmd('GET', $p . 'seen'), "\n";
var_dump((new Semaphore('parent', 1, ['servers' => RL_DSN, 'prefix' => $p]))->available());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_semaphore_fork_child:');
?>
--EXPECT--
bool(true)
{"own_held":true,"parent_held_here":false,"parent_token_here":null}
int(1)
