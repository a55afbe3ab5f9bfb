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
$l = new RedisLock('job', $opts + ['ttl' => 600, 'keepalive' => true]);
var_dump($l->acquire());
$codes = rl_fork(1, function () use ($opts, $p): int {
    RedisLock::forceRelease('job', $opts);
    $new = new RedisLock('job', $opts + ['ttl' => 30000, 'auto_release' => false]);
    if (!$new->acquire()) {
        return 1;
    }
    (new RLClient())->cmd('SET', $p . 'newtoken', $new->token());
    return 0;
});
var_dump($codes);
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
