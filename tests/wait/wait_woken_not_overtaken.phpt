--TEST--
Waiting: a waiter that a release (or forceRelease) has just woken is not overtaken by another waiter's attempt that the server runs in the same turn, before the woken waiter's SET NX
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_file(__DIR__ . '/../../lua/acquire.lua')) {
    die('skip needs the source tree (lua/)');
}
?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_woken_not_overtaken:';
$key = $p . 'job';
$k = fn(string $kind) => "$key:redislock-$kind";
$a = rl_admin();
$blocked = fn() => (int) $a->info('clients', 'blocked_clients');
$lua = fn(string $name) => file_get_contents(__DIR__ . "/../../lua/$name.lua");
$w = new RLClient();
/* W's attempt as a waiter: acquire.lua with the lock's wake-up list and W's
 * own, then its BLPOP on both. */
$attempt = fn(string $block) => [
    ['EVAL', $lua('acquire'), '5', $key, $k('fence'), $k('wait'), $k('wake'), $k('wake') . ':w',
        'w-token', '10000', '0', '5000', '0'],
    ['BLPOP', $k('wake') . ':w', $k('wake'), $block],
];
$wakers = [
    'release' => ['EVAL', $lua('release'), '3', $key, $k('wait'), $k('wake'), 'h-token'],
    'forceRelease' => ['EVAL', $lua('release'), '3', $key, $k('wait'), $k('wake'), '', '1'],
];

foreach ($wakers as $name => $wake) {
    echo "-- $name\n";
    /* H holds the lock; C, a RedisLock, waits for it: it marks the lock as
     * waited for and sleeps in BLPOP with its SET NX behind. */
    $a->cmd('DEL', $key, $p . 'c');
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

    /* In one write, so in one turn of the server: the release of H's lock,
     * which wakes C (whose SET NX the server runs at the end of the turn),
     * then W's attempt. W must not take the lock from C. */
    [$woke, $tried, $popped] = $w->pipeline($wake, ...$attempt('0.1'));
    echo "$name: ", $woke, "\n";
    /* (The third element, how long the lock stays marked, varies.) */
    echo "W's attempt: ", json_encode(array_slice($tried, 0, 2)), ', its BLPOP: ', json_encode($popped), "\n";
    echo 'exit code of C: ', rl_cont_reap($c), "\n";
    [$ok, $ms] = json_decode($a->cmd('LINDEX', $p . 'c', '0'));
    echo 'C acquired: ', json_encode($ok), ', at once: ', json_encode($ms < 5000), "\n";

    /* C's release, which found the lock still marked (by W) and nobody
     * blocked, left its wake-up in the list: a waiter's attempt takes the
     * free lock then, and its BLPOP the wake-up. */
    var_dump($a->cmd('LLEN', $k('wake')));
    [$tried, $popped] = $w->pipeline(...$attempt('5'));
    echo "W's next attempt: ", json_encode($tried), ', its BLPOP returned: ', json_encode($popped !== null), "\n";
    var_dump($a->cmd('GET', $key));
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_woken_not_overtaken:');
?>
--EXPECT--
-- release
string(2) "OK"
bool(true)
release: 1
W's attempt: [0,-2], its BLPOP: null
exit code of C: 0
C acquired: true, at once: true
int(1)
W's next attempt: [1,0], its BLPOP returned: true
string(7) "w-token"
-- forceRelease
string(2) "OK"
bool(true)
forceRelease: 1
W's attempt: [0,-2], its BLPOP: null
exit code of C: 0
C acquired: true, at once: true
int(1)
W's next attempt: [1,0], its BLPOP returned: true
string(7) "w-token"
