--TEST--
Keepalive: a renewal that finds a share gone (forceRelease() from another process) marks it lost: isAcquired(), isShared() and release() false, remaining() 0, token() null, counted in keepalive_lost
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_shared_lost:';
$opts = ['servers' => RL_DSN, 'prefix' => $p];
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 1500 : 600;
/* The other process is forked before the keepalive thread starts here (a
 * fork while that thread allocates can hang the child under ASan, whose
 * allocator is not fork-safe). */
$pid = pcntl_fork();
if ($pid === 0) {
    $c = new RLClient();
    for ($i = 0; $i < 500 && rl_share_lone_token($c, $p . 'job') === null; $i++) {
        usleep(10000);
    }
    exit(RedisLock::forceRelease('job', $opts) ? 0 : 1);
}
$l = new RedisLock('job', $opts + ['ttl' => $ttl, 'keepalive' => true]);
var_dump($l->acquireRead());
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
/* Renewals meanwhile: the first one after the forceRelease finds the share gone. */
for ($i = 0; $i < 100 && RedisLock::stats()['keepalive_lost'] === 0; $i++) {
    usleep(50000);
}
var_dump(RedisLock::stats()['keepalive_lost']);
var_dump($l->remaining(), $l->isShared(), $l->token(), $l->isAcquired(), $l->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_shared_lost:');
?>
--EXPECT--
bool(true)
int(0)
int(1)
int(0)
bool(false)
NULL
bool(false)
bool(false)
