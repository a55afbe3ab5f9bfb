--TEST--
Fencing: a waiter whose server lost the scripts while it slept gets the lock on the release, with the next fence
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:fence_wait_script_flush:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'fencing' => true, 'ttl' => 20000];
$a = rl_admin();

$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());
$first = $holder->fence();
/* The waiter's attempt after a wake-up is the acquire script, sent with
 * its BLPOP; here the server has forgotten it by then. */
$pid = rl_cont_spawn(function () use ($p, $opts): int {
    $lock = new RedisLock('job', $opts);
    if (!$lock->acquire(10000)) {
        return 2;
    }
    $c = new RLClient();
    $c->cmd('RPUSH', $p . 'got', json_encode([$lock->fence(), $c->cmd('GET', $p . 'job') === $lock->token()]));
    return $lock->release() ? 0 : 3;
});
var_dump(rl_cont_until(fn() => (int) $a->info('clients', 'blocked_clients') === 1, 10000));
var_dump($a->cmd('SCRIPT', 'FLUSH'));
$t0 = hrtime(true);
var_dump($holder->release());
$got = $a->cmd('BLPOP', $p . 'got', '5');
$ms = rl_cont_ms($t0);
echo $ms < 2000 ? "the waiter got it soon after the release\n" : "after $ms ms\n";
[$fence, $ours] = json_decode($got[1], true);
echo 'the next fence: ', json_encode($fence === $first + 1), "\n";
echo 'its token on the server: ', json_encode($ours), "\n";
echo 'exit code: ', rl_cont_reap($pid), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fence_wait_script_flush:');
?>
--EXPECT--
bool(true)
bool(true)
string(2) "OK"
bool(true)
the waiter got it soon after the release
the next fence: true
its token on the server: true
exit code: 0
