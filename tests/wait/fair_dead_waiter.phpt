--TEST--
Fair mode: a waiter killed while queued loses its place; the others still get the lock in order
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:fair_dead_waiter:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000, 'fair' => true];
$q = $p . 'job:redislock-queue';
$a = rl_admin();

$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());
$pids = [];
for ($i = 0; $i < 5; $i++) {
    $pids[] = rl_cont_spawn(function () use ($p, $opts, $i): int {
        $lock = new RedisLock('job', $opts);
        if (!$lock->acquire(10000)) {
            return 2;
        }
        $c = new RLClient();
        $c->cmd('RPUSH', $p . 'order', (string) $i);
        $c->cmd('RPUSH', $p . 'times', (string) hrtime(true));
        usleep(20000);
        return $lock->release() ? 0 : 3;
    });
    $queued = rl_cont_until(fn() => $a->cmd('LLEN', $q) === $i + 1, 10000);
    echo "waiter $i queued: ", json_encode($queued), "\n";
}
/* The head of the queue dies, then the lock is released to it. */
rl_kill($pids[0], SIGKILL);
echo 'waiter 0 exit code: ', rl_cont_reap($pids[0]), "\n";
echo 'queue length: ', $a->cmd('LLEN', $q), "\n";
$t0 = hrtime(true);
var_dump($holder->release());
echo 'exit codes: ', implode(' ', array_map('rl_cont_reap', array_slice($pids, 1))), "\n";
echo 'order: ', implode(' ', $a->cmd('LRANGE', $p . 'order', '0', '-1')), "\n";
$last = (int) $a->cmd('LINDEX', $p . 'times', '-1');
$ms = ($last - $t0) / 1e6;
echo $ms < 5000 ? "all done within 5 s of the release\n" : "last one got the lock $ms ms after the release\n";
echo 'queue left: ', $a->cmd('EXISTS', $q, $q . '-exp'), "\n";
/* What the dead waiter left behind (its wake-up list) expires by itself. */
$forever = [];
foreach ($a->cmd('KEYS', $p . 'job*') as $k) {
    if ($a->cmd('PTTL', $k) < 0) {
        $forever[] = $k;
    }
}
echo 'keys without expiry: ', json_encode($forever), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fair_dead_waiter:');
?>
--EXPECT--
bool(true)
waiter 0 queued: true
waiter 1 queued: true
waiter 2 queued: true
waiter 3 queued: true
waiter 4 queued: true
waiter 0 exit code: -1
queue length: 5
bool(true)
exit codes: 0 0 0 0
order: 1 2 3 4
all done within 5 s of the release
queue left: 0
keys without expiry: []
