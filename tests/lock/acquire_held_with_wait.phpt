--TEST--
acquire() with a wait on a lock held for longer than the wait returns false and leaves the holder's key alone
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$opts = ['servers' => RL_DSN, 'prefix' => 'rltest:acquire_held_with_wait:'];
$key = 'rltest:acquire_held_with_wait:job';
$a = new RedisLock('job', $opts);
var_dump($a->acquire());
$token = $a->token();

echo "second object, same process:\n";
$b = new RedisLock('job', $opts);
var_dump($b->acquire(150));
var_dump($b->token(), $b->remaining());
var_dump(rl_admin()->cmd('GET', $key) === $token);

echo "second process:\n";
$codes = rl_fork(1, function () use ($opts, $key, $token): int {
    $c = new RedisLock('job', $opts);
    if ($c->acquire(150) !== false) {
        return 2;
    }
    if ($c->token() !== null || rl_admin()->cmd('GET', $key) !== $token) {
        return 3;
    }
    return 0;
});
var_dump($codes);

echo "holder unaffected:\n";
var_dump(rl_admin()->cmd('GET', $key) === $token);
var_dump(rl_admin()->cmd('PTTL', $key) > 0);
var_dump($a->isAcquired());
var_dump($a->token() === $token);
var_dump($a->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:acquire_held_with_wait:');
?>
--EXPECT--
bool(true)
second object, same process:
bool(false)
NULL
int(0)
bool(true)
second process:
array(1) {
  [0]=>
  int(0)
}
holder unaffected:
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
