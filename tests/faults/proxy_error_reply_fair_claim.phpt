--TEST--
Proxy: in fair mode, an error reply to the claim that follows a waiter's wake-up makes acquire() throw RedisLockException with the server's text, and the lock handed over is passed on, not kept
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
require __DIR__ . '/../contention.inc';
$p = 'rltest:proxy_error_reply_fair_claim:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000, 'fair' => true];
$q = $p . 'job:redislock-queue';
$a = rl_admin();
$proxy = new RLProxy();

$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());

/* The waiter reaches the server through the proxy. Its first attempt
 * (acquire_fair.lua by EVALSHA: the holder's acquire loaded it) joins the
 * queue; the claim pipelined behind its BLPOP is the second EVALSHA it
 * sends, and the proxy refuses it. */
$proxy->fault('cmd=EVALSHA skip=1 error ERR injected');
$w = rl_cont_spawn(function () use ($p, $opts, $proxy): int {
    $lock = new RedisLock('job', ['servers' => $proxy->dsn()] + $opts);
    try {
        $got = $lock->acquire(8000);
    } catch (RedisLockException $e) {
        $msg = $e->getMessage();
        (new RLClient())->cmd('RPUSH', $p . 'said', str_contains($msg, 'ERR injected') ? 'threw' : "threw: $msg");
        return $lock->isAcquired() ? 3 : 0;
    }
    (new RLClient())->cmd('RPUSH', $p . 'said', 'returned ' . var_export($got, true));
    return 2;
});
var_dump(rl_cont_until(fn() => $a->cmd('LLEN', $q) === 1, 10000));

/* The release hands the lock to the waiter, the head of the queue. */
var_dump($holder->release());
echo 'waiter exit code: ', rl_cont_reap($w), "\n";
echo 'waiter: ', $a->cmd('LINDEX', $p . 'said', '0'), "\n";

/* It did not keep the lock it was handed: the next caller gets it at once. */
$next = new RedisLock('job', $opts);
var_dump($next->acquire());
var_dump($next->release());
echo 'queue left: ', $a->cmd('EXISTS', $q), "\n";
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_error_reply_fair_claim:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
waiter exit code: 0
waiter: threw
bool(true)
bool(true)
queue left: 0
