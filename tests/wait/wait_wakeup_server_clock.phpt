--TEST--
A woken waiter's remaining() is what its own clock proves: never more than the ttl, whatever time a wake-up carries
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_wakeup_server_clock:';
$a = rl_admin();
$ttl = 10000;

/* Someone else holds the lock for 30 s. */
$a->cmd('SET', $p . 'job', 'someone-else', 'PX', '30000');
/* The lock is released while the waiter blocks, by a server whose clock
 * just jumped an hour ahead: the wake-up it pushes is from the future. */
$releaser = rl_cont_spawn(function () use ($p): int {
    $c = new RLClient();
    for ($i = 0; $i < 300 && $c->cmd('EXISTS', $p . 'job:redislock-wait') === 0; $i++) {
        usleep(10000);
    }
    usleep(200000);
    $c->cmd('DEL', $p . 'job');
    $t = $c->cmd('TIME');
    $c->cmd('RPUSH', $p . 'job:redislock-wake', (string) (((int) $t[0] + 3600) * 1000));
    return 0;
});

$waiter = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl]);
$t0 = hrtime(true);
var_dump($waiter->acquire(5000));
$ms = rl_cont_ms($t0);
echo 'releaser exit code ', rl_cont_reap($releaser), "\n";
$remaining = $waiter->remaining();
$pttl = $a->cmd('PTTL', $p . 'job');
echo $ms < 3000 ? "woken by the release\n" : "took $ms ms\n";
echo $remaining <= $ttl ? "remaining() within the ttl\n" : "remaining() $remaining ms, ttl $ttl\n";
echo $remaining <= $pttl + 1 ? "no more than the server has left\n" : "remaining() $remaining ms, server has $pttl\n";
echo $remaining > $ttl - $ms - 500 ? "dated from the wait, not from its start\n" : "remaining() $remaining ms after $ms ms\n";
var_dump($waiter->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_wakeup_server_clock:');
?>
--EXPECT--
bool(true)
releaser exit code 0
woken by the release
remaining() within the ttl
no more than the server has left
dated from the wait, not from its start
bool(true)
