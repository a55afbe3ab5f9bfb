--TEST--
Waiting: a waiter that a release has just woken is not overtaken by another waiter's attempt that the server runs in the same turn, before the woken waiter's SET NX
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php
require __DIR__ . '/skipif.inc';
if (!is_file(__DIR__ . '/../lua/acquire.lua')) {
    die('skip needs the source tree (lua/)');
}
?>
--FILE--
<?php
require __DIR__ . '/contention.inc';
$p = 'rltest:wait_woken_not_overtaken:';
$key = $p . 'job';
$k = fn(string $kind) => "$key:redislock-$kind";
$a = rl_admin();
$blocked = fn() => (int) $a->info('clients', 'blocked_clients');
$release = file_get_contents(__DIR__ . '/../lua/release.lua');
$acquire = file_get_contents(__DIR__ . '/../lua/acquire.lua');

/* H holds the lock; C, a RedisLock, waits for it: it marks the lock as
 * waited for and sleeps in BLPOP with its SET NX behind. */
var_dump($a->cmd('SET', $key, 'h-token', 'NX', 'PX', '10000'));
$c = rl_cont_spawn(function () use ($p): int {
    $lock = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000]);
    $t0 = hrtime(true);
    $ok = $lock->acquire(10000);
    (new RLClient())->cmd('RPUSH', $p . 'c', json_encode([$ok, rl_cont_ms($t0)]));
    /* Held for a second: W's BLPOP below times out first. */
    usleep(1000000);
    return $ok && $lock->release() ? 0 : 1;
});
var_dump(rl_cont_until(fn() => $blocked() === 1, 10000));

/* In one write, so in one turn of the server: H's release, which wakes C
 * (whose SET NX the server runs at the end of the turn), then W's attempt
 * as a waiter (acquire.lua with W's own wake-up list and the lock's, then
 * its BLPOP). W must not take the lock from C. */
$w = new RLClient();
[$released, $attempt, $popped] = $w->pipeline(
    ['EVAL', $release, '3', $key, $k('wait'), $k('wake'), 'h-token'],
    ['EVAL', $acquire, '5', $key, $k('fence'), $k('wait'), $k('wake') . ':w', $k('wake'),
        'w-token', '10000', '0', '5000', '0'],
    ['BLPOP', $k('wake') . ':w', $k('wake'), '0.1']
);
echo 'H released: ', $released, "\n";
echo "W's attempt: ", json_encode($attempt), ', its BLPOP: ', json_encode($popped), "\n";
echo 'exit code of C: ', rl_cont_reap($c), "\n";
[$ok, $ms] = json_decode($a->cmd('LINDEX', $p . 'c', '0'));
echo 'C acquired: ', json_encode($ok), ', at once: ', json_encode($ms < 5000), "\n";

/* The flag lasts 2 ms: later, a waiter's attempt takes a free lock. */
usleep(20000);
var_dump($a->cmd('EXISTS', $key, $k('wake-flag')));
$attempt = $w->pipeline(
    ['EVAL', $acquire, '5', $key, $k('fence'), $k('wait'), $k('wake') . ':w', $k('wake'),
        'w-token', '10000', '0', '5000', '0'],
    ['BLPOP', $k('wake') . ':w', $k('wake'), '5']
);
echo "W's next attempt: ", json_encode($attempt[0]), ', its BLPOP returned: ', json_encode($attempt[1] !== null), "\n";
var_dump($a->cmd('GET', $key));
?>
--CLEAN--
<?php
require __DIR__ . '/core.inc';
rl_core_clean('rltest:wait_woken_not_overtaken:');
?>
--EXPECT--
string(2) "OK"
bool(true)
H released: 1
W's attempt: [0,-2], its BLPOP: null
exit code of C: 0
C acquired: true, at once: true
int(0)
W's next attempt: [1,0], its BLPOP returned: true
string(7) "w-token"
