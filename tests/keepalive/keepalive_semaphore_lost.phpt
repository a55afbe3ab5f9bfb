--TEST--
Keepalive: a renewal that finds a Semaphore hold gone (forceRelease() from another process) marks it lost: isAcquired() and release() false, remaining() 0, token() null, counted in keepalive_lost
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
use RedisLock\Semaphore;

$p = 'rltest:keepalive_semaphore_lost:';
$opts = ['servers' => RL_DSN, 'prefix' => $p];
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 1500 : 600;
/* The other process is forked before the keepalive thread starts here (a
 * fork while that thread allocates can hang the child under ASan, whose
 * allocator is not fork-safe). */
$pid = pcntl_fork();
if ($pid === 0) {
    $c = new RLClient();
    for ($i = 0; $i < 500 && $c->cmd('EXISTS', $p . 'pool:redislock-semaphore') !== 1; $i++) {
        usleep(10000);
    }
    exit(Semaphore::forceRelease('pool', $opts) ? 0 : 1);
}
$s = new Semaphore('pool', 2, $opts + ['ttl' => $ttl, 'keepalive' => true]);
var_dump($s->acquire());
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
for ($i = 0; $i < 100 && RedisLock::stats()['keepalive_lost'] === 0; $i++) {
    usleep(50000);
}
var_dump(RedisLock::stats()['keepalive_lost']);
var_dump($s->remaining(), $s->token(), $s->isAcquired(), $s->release(), $s->available());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_semaphore_lost:');
?>
--EXPECT--
bool(true)
int(0)
int(1)
int(0)
NULL
bool(false)
bool(false)
int(2)
