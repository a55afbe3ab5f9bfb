--TEST--
Quorum: a lock left free while it is marked as waited for, with no wake-up left (a lease that ran out, a wake-up popped by someone who did not take the key), is taken within milliseconds by a waiter that marks it, not after a block of a second
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
require __DIR__ . '/../quorum.inc';
$p = 'rltest:quorum_wait_free_marked:';
$servers = rl_quorum_servers(3);
$opts = rl_quorum_opts($servers, $p, ['ttl' => 20000]);
$holder = new RedisLock('job', $opts);
$waiter = new RedisLock('job', $opts);
var_dump($holder->acquire());
/* The waiter waits once (150 ms, in vain): it marks the lock for that
 * long, and its next acquire begins with the marking round. */
var_dump($waiter->acquire(150));
var_dump($holder->release());
usleep(300000);
/* Now the lock is free and marked on every server, with no wake-up in its
 * list: what a woken waiter's hand-over looks like for the moment before
 * its SET runs, and what a lease that ran out leaves for longer. */
foreach ($servers as $s) {
    $c = $s->client();
    $c->cmd('SET', $p . 'job:redislock-wait', '1', 'PX', '10000');
    $c->cmd('DEL', $p . 'job:redislock-wake');
}
$t0 = hrtime(true);
var_dump($waiter->acquire(5000));
$ms = rl_quorum_ms($t0);
echo $ms < 600 ? "within milliseconds\n" : "after $ms ms\n";
/* A majority is the lock (a third server's answer may come after the round
 * was decided). */
$ours = array_filter(rl_quorum_values($servers, $p . 'job'), fn($v) => $v === $waiter->token());
echo 'held on a majority: ', json_encode(count($ours) >= 2), "\n";
var_dump($waiter->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:quorum_wait_free_marked:');
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
bool(true)
within milliseconds
held on a majority: true
bool(true)
