--TEST--
RedisLock::restore(): another process continues a hold by its token (release, extend, isAcquired act on it; remaining() is 0 until dated again); a token that is not the holder's touches nothing; a malformed token is a ValueError; a restored object does not release on its own unless asked to
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:restore_by_token:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 20000];
$admin = rl_admin();

echo "a hold that outlives its request\n";
$first = new RedisLock('job', $opts + ['auto_release' => false]);
var_dump($first->acquire());
$token = $first->token();
unset($first);
var_dump($admin->cmd('GET', $p . 'job') === $token);

echo "another process continues it\n";
var_dump(rl_fork(1, function () use ($opts, $token, $admin, $p) {
    $lock = RedisLock::restore('job', $token, $opts);
    $ok = $lock->token() === $token && $lock->remaining() === 0 && $lock->fence() === null;
    $ok = $ok && $lock->isAcquired() && $lock->remaining() > 15000 && $lock->remaining() <= 20000;
    $admin->cmd('PEXPIRE', $p . 'job', '3000');
    $ok = $ok && $lock->isAcquired() && $lock->remaining() <= 3000;
    $ok = $ok && $lock->extend(30000) && $lock->remaining() > 25000;
    $pttl = $admin->cmd('PTTL', $p . 'job');
    $ok = $ok && $pttl > 25000 && $pttl <= 30000;
    unset($lock); /* not released by its end */
    return $ok && $admin->cmd('GET', $p . 'job') === $token ? 0 : 1;
}));
$lock = RedisLock::restore('job', $token, $opts);
var_dump($lock->release(), $admin->cmd('EXISTS', $p . 'job'), $lock->release(), $lock->isAcquired());

echo "a token that is not the holder's touches nothing\n";
$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());
$stranger = RedisLock::restore('job', str_repeat('0', 32), $opts);
var_dump($stranger->isAcquired(), $stranger->extend(1000), $stranger->release());
$stranger = RedisLock::restore('job', $token, $opts);
var_dump($stranger->release());
var_dump($admin->cmd('GET', $p . 'job') === $holder->token(), $admin->cmd('PTTL', $p . 'job') > 15000);

echo "auto_release => true: released when the restored object ends\n";
$again = RedisLock::restore('job', $holder->token(), $opts + ['auto_release' => true]);
unset($again);
var_dump($admin->cmd('EXISTS', $p . 'job'), $holder->release());

echo "bad input\n";
foreach (['', 'abc', strtoupper(str_repeat('ab', 16)), str_repeat('a', 33), str_repeat('g', 32), $token . "\0"] as $bad) {
    try {
        RedisLock::restore('job', $bad, $opts);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
foreach ([['', $token, $opts], ['job', $token, ['ttl' => 'x']], ['job', $token, ['nope' => 1]]] as [$name, $t, $o]) {
    try {
        RedisLock::restore($name, $t, $o);
        echo "accepted\n";
    } catch (ValueError|TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('DEL', 'rltest:restore_by_token:job');
?>
--EXPECT--
a hold that outlives its request
bool(true)
bool(true)
another process continues it
array(1) {
  [0]=>
  int(0)
}
bool(true)
int(0)
bool(false)
bool(false)
a token that is not the holder's touches nothing
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
auto_release => true: released when the restored object ends
int(0)
bool(false)
bad input
RedisLock::restore(): Argument #2 ($token) must be a token returned by RedisLock::token() (32 lowercase hex digits)
RedisLock::restore(): Argument #2 ($token) must be a token returned by RedisLock::token() (32 lowercase hex digits)
RedisLock::restore(): Argument #2 ($token) must be a token returned by RedisLock::token() (32 lowercase hex digits)
RedisLock::restore(): Argument #2 ($token) must be a token returned by RedisLock::token() (32 lowercase hex digits)
RedisLock::restore(): Argument #2 ($token) must be a token returned by RedisLock::token() (32 lowercase hex digits)
RedisLock::restore(): Argument #2 ($token) must be a token returned by RedisLock::token() (32 lowercase hex digits)
ValueError: RedisLock::restore(): Argument #1 ($name) must not be empty
TypeError: RedisLock::restore(): Argument #3 ($options) option "ttl" must be of type int, string given
ValueError: RedisLock::restore(): Argument #3 ($options) contains unknown option "nope"
