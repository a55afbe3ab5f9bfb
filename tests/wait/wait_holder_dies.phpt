--TEST--
Waiting: when the holder dies without releasing, a waiter gets the lock once the holder's lease runs out
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_holder_dies:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 1000];
$a = rl_admin();

$holder = rl_cont_spawn(function () use ($p, $opts): int {
    $lock = new RedisLock('job', $opts);
    if (!$lock->acquire()) {
        return 2;
    }
    (new RLClient())->cmd('RPUSH', $p . 'held', '1');
    sleep(20); /* killed long before */
    return 3;
});
var_dump($a->cmd('BLPOP', $p . 'held', '4') !== null);
rl_kill($holder, SIGKILL);
echo 'holder exit code ', rl_cont_reap($holder), "\n";

/* The waiter starts with the dead holder's lease still running. */
$waiter = new RedisLock('job', ['ttl' => 10000] + $opts);
$left = $a->cmd('PTTL', $p . 'job');
$t0 = hrtime(true);
$ok = $waiter->acquire(5000);
$ms = rl_cont_ms($t0);
var_dump($ok);
echo $left > 0 ? "lease was running\n" : "lease was over already ($left)\n";
echo $ms >= $left - 5 ? "not before the lease ran out\n" : "after $ms ms, lease had $left ms\n";
echo $ms < 5000 && $ms < $left + 1500 ? "soon after the lease ran out, not at the end of the wait\n"
    : "after $ms ms, lease had $left ms\n";
var_dump(RedisLock::stats()['waits'] >= 1);
/* The lease was taken when the server's BLPOP timed out, under a second
 * after the waiter began to block. It is dated from when that BLPOP was
 * sent (all the local clock can prove), not from the start of the wait,
 * and never by the server's clock. */
$pttl = $a->cmd('PTTL', $p . 'job');
$remaining = $waiter->remaining();
echo 'remaining() ', $remaining > 8000 ? 'more than 8 s' : "$remaining ms",
    $remaining <= $pttl + 1 ? ", no more than the server has left\n" : ", server has $pttl ms\n";
var_dump($waiter->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_holder_dies:');
?>
--EXPECT--
bool(true)
holder exit code -1
bool(true)
lease was running
not before the lease ran out
soon after the lease ran out, not at the end of the wait
bool(true)
remaining() more than 8 s, no more than the server has left
bool(true)
