--TEST--
Quorum: a waiting acquire() blocks on every server instead of polling, and is woken by the holder's release (which reaches every server) long before the holder's lease ends
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
require __DIR__ . '/../quorum.inc';
$p = 'rltest:quorum_wait_woken:';
$servers = rl_quorum_servers(3);
$opts = rl_quorum_opts($servers, $p, ['ttl' => 30000]);
$a = rl_admin();

$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());
$w = rl_cont_spawn(function () use ($p, $opts): int {
    $c = new RLClient();
    $lock = new RedisLock('job', $opts);
    $before = RedisLock::stats();
    $start = hrtime(true);
    if (!$lock->acquire(20000)) {
        return 2;
    }
    $c->cmd('RPUSH', $p . 'got', (string) hrtime(true));
    $after = RedisLock::stats();
    $c->cmd('SET', $p . 'waited_ms', (string) intdiv(hrtime(true) - $start, 1000000));
    $c->cmd('SET', $p . 'commands', (string) ($after['commands'] - $before['commands']));
    $c->cmd('SET', $p . 'waits', (string) ($after['waits'] - $before['waits']));
    return $lock->release() ? 0 : 3;
});
/* Marked as waited for on a majority: the waiter's attempt failed. */
var_dump(rl_cont_until(function () use ($servers, $p) {
    $marked = 0;
    foreach ($servers as $s) {
        $marked += $s->client()->cmd('EXISTS', $p . 'job:redislock-wait');
    }
    return $marked >= 2;
}, 10000));
/* Held for a while: a polling waiter (2 to 50 ms between attempts) would
 * send dozens of attempts to each server meanwhile. */
usleep(1500000);
$t0 = hrtime(true);
var_dump($holder->release());
echo 'waiter exit code: ', rl_cont_reap($w), "\n";
$ms = ((int) $a->cmd('LINDEX', $p . 'got', '0') - $t0) / 1e6;
echo $ms < 1000 ? "woken by the release\n" : "got it $ms ms after the release\n";
/* Blocked, a waiter sends per second at most one marking round and one
 * blocking round (BLPOP and the attempt behind it): 9 commands over 3
 * servers, and a few more to start and end (3 more for the HELLO in each
 * new connection's handshake). Polling would send 60 or more
 * per second. (The wait is longer than the 1.5 s hold when the child is
 * slow to start, as under valgrind.) */
$commands = (int) $a->cmd('GET', $p . 'commands');
$secs = (int) ceil((int) $a->cmd('GET', $p . 'waited_ms') / 1000);
echo $commands <= 12 * ($secs + 1) + 3 ? "few commands while waiting\n" : "$commands commands in $secs s of waiting\n";
echo 'waits: ', (int) $a->cmd('GET', $p . 'waits') >= 1 ? 'counted' : 'none', "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('DEL', 'rltest:quorum_wait_woken:got', 'rltest:quorum_wait_woken:commands', 'rltest:quorum_wait_woken:waits',
    'rltest:quorum_wait_woken:waited_ms');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
waiter exit code: 0
woken by the release
few commands while waiting
waits: counted
