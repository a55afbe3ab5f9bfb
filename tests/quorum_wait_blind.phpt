--TEST--
Quorum: an acquire right after a release that woke a waiter skips the marking round: it blocks on every server at once (BLPOP and SET), and is woken by the other's release
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/contention.inc';
require __DIR__ . '/quorum.inc';
$p = 'rltest:quorum_wait_blind:';
$servers = rl_quorum_servers(3);
$opts = rl_quorum_opts($servers, $p, ['ttl' => 10000]);
$a = rl_admin();
$first = $servers[0]->client();
$blocked = fn() => (int) $first->info('clients', 'blocked_clients');
$calls = function () use ($servers): array {
    $sum = [];
    foreach ($servers as $s) {
        foreach (rl_cont_calls($s->client()) as $cmd => $n) {
            $sum[$cmd] = ($sum[$cmd] ?? 0) + $n;
        }
    }
    return $sum;
};
$scripts = fn(array $c) => ($c['evalsha'] ?? 0) + ($c['eval'] ?? 0);

/* B takes the lock, lets A (this process) wait for it, then waits for it
 * itself, is woken by A's release and holds the lock for 300 ms. */
$b = rl_cont_spawn(function () use ($p, $opts, $servers): int {
    $c = $servers[0]->client();
    $lock = new RedisLock('job', $opts);
    if (!$lock->acquire()) {
        return 2;
    }
    rl_cont_until(fn() => (int) $c->info('clients', 'blocked_clients') === 1, 10000);
    $lock->release();
    if (!$lock->acquire(10000)) {
        return 3;
    }
    (new RLClient())->cmd('RPUSH', $p . 'b', 'woken');
    usleep(300000);
    return $lock->release() ? 0 : 4;
});
$lock = new RedisLock('job', $opts);
var_dump(rl_cont_until(fn() => $first->cmd('EXISTS', $p . 'job') === 1, 10000));
var_dump($lock->acquire(10000));
var_dump(rl_cont_until(fn() => $blocked() === 1, 10000));
var_dump($lock->release());
var_dump($a->cmd('BLPOP', $p . 'b', '5')[1]);
$before = $calls();
$sent = RedisLock::stats()['commands'];
$t0 = hrtime(true);
var_dump($lock->acquire(10000));
$ms = rl_cont_ms($t0);
$after = $calls();
/* One write to each server: BLPOP and the SET NX behind it. The scripts
 * run meanwhile are B's release, one on each server. */
echo 'commands A sent: ', RedisLock::stats()['commands'] - $sent, "\n";
echo 'scripts run: ', $scripts($after) - $scripts($before), "\n";
echo 'BLPOPs: ', ($after['blpop'] ?? 0) - ($before['blpop'] ?? 0), "\n";
echo $ms >= 150 ? "waited for B's release\n" : "did not wait: $ms ms\n";
echo 'exit code of B: ', rl_cont_reap($b), "\n";
var_dump($lock->release());
?>
--CLEAN--
<?php
require __DIR__ . '/core.inc';
rl_core_clean('rltest:quorum_wait_blind:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
string(5) "woken"
bool(true)
commands A sent: 6
scripts run: 3
BLPOPs: 3
waited for B's release
exit code of B: 0
bool(true)
