--TEST--
RedisLock::forceRelease(): deletes the lock whoever holds it (true when a key was deleted), wakes a waiter as a release does, works on a quorum, and throws ConnectionException when the servers cannot say
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
require __DIR__ . '/../quorum.inc';
$p = 'rltest:force_release:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 60000];
$admin = rl_admin();

echo "held by someone else\n";
$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());
var_dump(RedisLock::forceRelease('job', $opts), $admin->cmd('EXISTS', $p . 'job'));
var_dump(RedisLock::forceRelease('job', $opts));
echo "the holder finds it gone\n";
var_dump($holder->isAcquired(), $holder->release());

foreach ([false, true] as $fair) {
    echo $fair ? "fair mode" : "plain", ": a waiter gets it long before the holder's lease ends\n";
    $o = $opts + ['fair' => $fair];
    $holder = new RedisLock('job', $o);
    var_dump($holder->acquire());
    $w = rl_cont_spawn(function () use ($o): int {
        $lock = new RedisLock('job', $o);
        return $lock->acquire(20000) && $lock->release() ? 0 : 2;
    });
    var_dump(rl_cont_until(fn() => $admin->cmd('EXISTS', $p . 'job:redislock-wait', $p . 'job:redislock-queue') > 0));
    var_dump(RedisLock::forceRelease('job', $o));
    echo 'waiter exit code: ', rl_cont_reap($w), "\n";
    $holder = null;
}

echo "quorum\n";
$servers = rl_quorum_servers(3);
$q = rl_quorum_opts($servers, $p);
$holder = new RedisLock('job', $q);
var_dump($holder->acquire());
var_dump(RedisLock::forceRelease('job', $q), rl_quorum_values($servers, $p . 'job'));
$holder = null;
rl_quorum_stop($servers[0]);
rl_quorum_stop($servers[1]);
try {
    RedisLock::forceRelease('job', $q);
} catch (RedisLock\ConnectionException $e) {
    echo get_class($e), ": ", substr($e->getMessage(), 0, strpos($e->getMessage(), ')') + 1), "\n";
}
echo "bad input\n";
try {
    RedisLock::forceRelease('', $opts);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:force_release:');
?>
--EXPECT--
held by someone else
bool(true)
bool(true)
int(0)
bool(false)
the holder finds it gone
bool(false)
bool(false)
plain: a waiter gets it long before the holder's lease ends
bool(true)
bool(true)
bool(true)
waiter exit code: 0
fair mode: a waiter gets it long before the holder's lease ends
bool(true)
bool(true)
bool(true)
waiter exit code: 0
quorum
bool(true)
bool(true)
array(3) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  NULL
}
RedisLock\ConnectionException: forceRelease failed: no quorum (2 of 3 servers needed, 2 failed)
bad input
RedisLock::forceRelease(): Argument #1 ($name) must not be empty
