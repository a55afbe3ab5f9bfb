--TEST--
Waiting: a lease taken late in a long BLPOP, whose validity the local clock proves to be under half the ttl, is renewed at once and dated from then
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_short_validity_renewed:';
$a = rl_admin();
$ttl = 1500;

/* Held by someone else; released about 0.9 s into the waiter's BLPOP. */
$a->cmd('SET', $p . 'job', 'someone-else', 'PX', '30000');
$releaser = rl_cont_spawn(function () use ($p): int {
    $c = new RLClient();
    for ($i = 0; $i < 300 && $c->cmd('EXISTS', $p . 'job:redislock-wait') === 0; $i++) {
        usleep(10000);
    }
    usleep(900000);
    $c->cmd('DEL', $p . 'job');
    $c->cmd('RPUSH', $p . 'job:redislock-wake', '1');
    return 0;
});

$before = RedisLock::stats()['extended'];
$waiter = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl]);
var_dump($waiter->acquire(5000));
$remaining = $waiter->remaining();
$pttl = $a->cmd('PTTL', $p . 'job');
echo 'releaser exit code ', rl_cont_reap($releaser), "\n";
echo 'renewed: ', RedisLock::stats()['extended'] - $before, "\n";
echo $remaining > $ttl / 2 && $remaining <= $ttl ? "more than half the ttl proven\n" : "remaining() $remaining ms\n";
echo $remaining <= $pttl + 1 ? "no more than the server has left\n" : "remaining() $remaining ms, server has $pttl\n";
var_dump($waiter->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_short_validity_renewed:');
?>
--EXPECT--
bool(true)
releaser exit code 0
renewed: 1
more than half the ttl proven
no more than the server has left
bool(true)
