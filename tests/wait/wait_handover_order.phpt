--TEST--
Waiting: a release passes the lock to the waiter that has blocked longest, before the releaser can take it back (even while the waiter's process is stopped), with a lease dated from the release
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_handover_order:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 20000];
$a = rl_admin();
$blocked = fn() => (int) $a->info('clients', 'blocked_clients');

/* A waiter in a child: takes the lock, reports its number (and what it
 * saw) on $p.got, holds it until $p.go:<tag> exists, releases. */
$waiter = function (int $n, string $tag, array $opts) use ($p): int {
    $c = new RLClient();
    $lock = new RedisLock('job', $opts);
    if (!$lock->acquire(15000)) {
        return 2;
    }
    /* The lease on the server first, then our own view of it: ours must
     * never be the longer. */
    $pttl = $c->cmd('PTTL', $p . 'job');
    $c->cmd('RPUSH', $p . 'got', json_encode([$n, $pttl, $lock->remaining()]));
    if (!rl_cont_until(fn() => $c->cmd('EXISTS', $p . "go:$tag") === 1, 15000)) {
        return 3;
    }
    return $lock->release() ? 0 : 4;
};
$got = fn() => array_map(fn($s) => json_decode($s, true), $a->cmd('LRANGE', $p . 'got', '0', '-1'));

echo "-- the releaser cannot take it back\n";
$rounds = rl_cont_memcheck() ? 3 : 8;
$taken_back = $handed = 0;
$codes = [];
$holder = new RedisLock('job', $opts);
for ($r = 0; $r < $rounds; $r++) {
    $a->cmd('DEL', $p . 'got');
    if (!$holder->acquire(5000)) {
        echo "round $r: the holder could not take the free lock\n";
        break;
    }
    $pid = rl_cont_spawn(fn() => $waiter($r, "round$r", $opts));
    if (!rl_cont_until(fn() => $blocked() === 1, 10000)) {
        echo "round $r: the waiter never blocked\n";
    }
    /* The waiter cannot act until the releaser has tried: whatever it gets,
     * the server gave it on its own. */
    rl_kill($pid, 19); /* SIGSTOP */
    $holder->release();
    $back = $holder->acquire(0);
    rl_kill($pid, 18); /* SIGCONT */
    if ($back) {
        $taken_back++;
        $holder->release();
    }
    if (rl_cont_until(fn() => count($got()) === 1, 10000)) {
        $handed++;
    }
    $a->cmd('SET', $p . "go:round$r", '1');
    $codes[] = rl_cont_reap($pid);
}
echo "taken back by the releaser: $taken_back of $rounds\n";
echo 'held by the waiter every round: ', json_encode($handed === $rounds), "\n";
echo 'exit codes all 0: ', json_encode(array_unique($codes) === [0]), "\n";

echo "-- blocked waiters in the order they blocked\n";
$a->cmd('DEL', $p . 'got');
var_dump($holder->acquire());
$pids = [];
for ($n = 0; $n < 3; $n++) {
    $pids[] = rl_cont_spawn(fn() => $waiter($n, "order$n", $opts));
    /* The next one starts only when this one sleeps in BLPOP. */
    rl_cont_until(fn() => $blocked() === $n + 1, 10000);
}
echo 'blocked: ', $blocked(), "\n";
$holder->release();
for ($n = 0; $n < 3; $n++) {
    rl_cont_until(fn() => count($got()) === $n + 1, 10000);
    $a->cmd('SET', $p . "go:order$n", '1');
}
echo 'order: ', implode(' ', array_column($got(), 0)), "\n";
echo 'exit codes: ', implode(' ', array_map('rl_cont_reap', $pids)), "\n";

echo "-- the lease is dated from the release, not from the wait\n";
/* With a 3 s ttl and a wait of 2.5 s, a lease dated from when the waiter
 * began to block would have at most 0.5 s left. */
$a->cmd('DEL', $p . 'got');
$short = ['ttl' => 3000] + $opts;
$holder = new RedisLock('job', $short);
var_dump($holder->acquire());
$pid = rl_cont_spawn(fn() => $waiter(0, 'dated', $short));
rl_cont_until(fn() => $blocked() === 1, 10000);
usleep(2500000);
$holder->release();
rl_cont_until(fn() => count($got()) === 1, 10000);
[[, $pttl, $remaining]] = $got();
echo 'remaining() by the waiter: ', $remaining > 1500 ? 'more than 1.5 s' : "$remaining ms", "\n";
echo 'no more than the server has left: ', json_encode($remaining <= $pttl + 1), "\n";
$a->cmd('SET', $p . 'go:dated', '1');
echo 'exit code: ', rl_cont_reap($pid), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_handover_order:');
?>
--EXPECTF--
-- the releaser cannot take it back
taken back by the releaser: 0 of %d
held by the waiter every round: true
exit codes all 0: true
-- blocked waiters in the order they blocked
bool(true)
blocked: 3
order: 0 1 2
exit codes: 0 0 0
-- the lease is dated from the release, not from the wait
bool(true)
remaining() by the waiter: more than 1.5 s
no more than the server has left: true
exit code: 0
