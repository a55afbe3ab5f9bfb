--TEST--
Keepalive: a renewal that finds the hold gone (forceRelease() and a new holder elsewhere) marks it lost (isAcquired() and release() false, remaining() 0, counted in keepalive_lost) and leaves the new holder's key as it is
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_lost_touches_nothing:';
$opts = ['servers' => RL_DSN, 'prefix' => $p];
/* The other process is forked before the keepalive thread starts here (a
 * fork while that thread allocates can hang the child under ASan, whose
 * allocator is not fork-safe). */
$pid = pcntl_fork();
if ($pid === 0) {
    $c = new RLClient();
    for ($i = 0; $i < 500 && $c->cmd('EXISTS', $p . 'job') !== 1; $i++) {
        usleep(10000);
    }
    RedisLock::forceRelease('job', $opts);
    $new = new RedisLock('job', $opts + ['ttl' => 30000, 'auto_release' => false]);
    if (!$new->acquire()) {
        exit(1);
    }
    $c->cmd('SET', $p . 'newtoken', $new->token());
    exit(0);
}
$l = new RedisLock('job', $opts + ['ttl' => 600, 'keepalive' => true]);
var_dump($l->acquire());
pcntl_waitpid($pid, $status);
var_dump([pcntl_wexitstatus($status)]);
$newToken = rl_admin()->cmd('GET', $p . 'newtoken');
usleep(800000); /* a renewal or more meanwhile */
var_dump(RedisLock::stats()['keepalive_lost']);
var_dump($l->remaining(), $l->isAcquired(), $l->release(), $l->token());
var_dump(rl_admin()->cmd('GET', $p . 'job') === $newToken, rl_admin()->cmd('PTTL', $p . 'job') > 25000);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_lost_touches_nothing:');
?>
--EXPECT--
bool(true)
array(1) {
  [0]=>
  int(0)
}
int(1)
int(0)
bool(false)
bool(false)
NULL
bool(true)
bool(true)
