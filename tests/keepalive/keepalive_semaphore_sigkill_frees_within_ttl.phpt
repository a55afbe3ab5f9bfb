--TEST--
Keepalive: the Semaphore permits of a process killed with SIGKILL are renewed no more, and come back within the ttl
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
use RedisLock\Semaphore;

$p = 'rltest:keepalive_semaphore_sigkill_frees_within_ttl:';
$slow = getenv('USE_ZEND_ALLOC') === '0';
$ttl = $slow ? 1500 : 500;
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl];
$pid = pcntl_fork();
if ($pid === 0) {
    $s = new Semaphore('pool', 3, $opts + ['keepalive' => true, 'weight' => 2]);
    $s->acquire();
    sleep(60);
    exit(0);
}
$w = new Semaphore('pool', 3, $opts + ['weight' => 2]);
for ($i = 0; $i < 500 && $w->available() !== 1; $i++) {
    usleep(10000);
}
usleep(3 * $ttl * 1000); /* three ttls: only renewals keep them */
var_dump($w->available(), $w->acquire());
rl_kill($pid, 9);
pcntl_waitpid($pid, $status);
$killed = microtime(true);
/* A waiter gets them when the dead holder's lease runs out: within the ttl
 * and a generous slack for a loaded (or valgrind's) machine. */
var_dump($w->acquire(10000), microtime(true) - $killed < ($slow ? 8.0 : 2.0), $w->release(), $w->available());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_semaphore_sigkill_frees_within_ttl:');
?>
--EXPECT--
int(1)
bool(false)
bool(true)
bool(true)
bool(true)
int(3)
