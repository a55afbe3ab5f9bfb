--TEST--
Waiting: a wake-up left by a release that nobody waited for is dropped when a waiting object's attempt takes the lock, so it cannot send the next waiter round for nothing
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_stale_wakeup_dropped:';
$a = rl_admin();
$opts = ['servers' => RL_DSN, 'prefix' => $p];
$wake = $p . 'job:redislock-wake';

/* $c has waited before: its attempts start with the acquire script. The
 * other holder's lease is short, but its first attempt must find it taken
 * (a slow start, as under valgrind, takes a longer lease). */
$c = new RedisLock('job', $opts);
foreach ([100, 1000, 5000] as $px) {
    $contended = RedisLock::stats()['contended'];
    $a->cmd('SET', $p . 'job', 'someone-else', 'PX', (string) $px);
    $got = $c->acquire($px + 5000);
    $c->release();
    if (RedisLock::stats()['contended'] > $contended) {
        break;
    }
}
var_dump($got, RedisLock::stats()['contended'] > $contended);

/* A child waits (which marks the lock as waited for, for 5 s), is woken by
 * the release, takes the lock and releases it with nobody waiting: that
 * release leaves a wake-up on the lock's list. */
$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());
$child = rl_cont_spawn(function () use ($opts): int {
    $b = new RedisLock('job', $opts);
    if (!$b->acquire(5000)) {
        return 2;
    }
    return $b->release() ? 0 : 3;
});
usleep(300000);
var_dump($holder->release());
echo 'child exit code ', rl_cont_reap($child), "\n";
echo 'wake-ups left by the release nobody waited for: ', $a->cmd('LLEN', $wake), "\n";

/* The waiting object's attempt takes the lock and drops it. */
var_dump($c->acquire(2000));
echo 'wake-ups left once the lock was taken: ', $a->cmd('LLEN', $wake), "\n";
var_dump($c->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_stale_wakeup_dropped:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
child exit code 0
wake-ups left by the release nobody waited for: 1
bool(true)
wake-ups left once the lock was taken: 0
bool(true)
