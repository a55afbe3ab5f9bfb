--TEST--
acquire() without a wait on a lock held elsewhere returns false at once and leaves the holder's key alone
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$opts = ['servers' => RL_DSN, 'prefix' => 'rltest:acquire_held_no_wait:'];
$key = 'rltest:acquire_held_no_wait:job';
$a = new RedisLock('job', $opts);
var_dump($a->acquire());
$token = $a->token();

echo "second object, same process:\n";
$b = new RedisLock('job', $opts);
var_dump($b->acquire());
var_dump($b->acquire(0));
var_dump($b->token(), $b->remaining(), $b->isAcquired());
var_dump(rl_admin()->cmd('GET', $key) === $token);

echo "second process:\n";
$codes = rl_fork(1, function () use ($opts, $key, $token): int {
    $c = new RedisLock('job', $opts);
    if ($c->acquire() !== false) {
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
var_dump($a->isAcquired());
var_dump($a->release());
var_dump($b->acquire());
var_dump($b->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:acquire_held_no_wait:');
?>
--EXPECT--
bool(true)
second object, same process:
bool(false)
bool(false)
NULL
int(0)
bool(false)
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
