--TEST--
Quorum: a release hands the lock to the waiter blocked on the servers before the releaser can take it back, even while the waiter's process is stopped (each server runs the waiter's SET the moment it wakes it), and waiters blocked one after another get it in that order
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
require __DIR__ . '/../quorum.inc';
$p = 'rltest:quorum_wait_handover:';
$servers = rl_quorum_servers(3);
$opts = rl_quorum_opts($servers, $p, ['ttl' => 20000]);
$a = rl_admin();
/* Waiters blocked in BLPOP on every server (each blocks on all at once). */
$blocked = function () use ($servers): int {
    $min = PHP_INT_MAX;
    foreach ($servers as $s) {
        $min = min($min, (int) preg_replace('/.*blocked_clients:(\d+).*/s', '$1', $s->client()->cmd('INFO', 'clients')));
    }
    return $min;
};

/* A waiter in a child: takes the lock, reports its number on $p.got, holds
 * it until $p.go:<tag> exists, releases. */
$waiter = function (int $n, string $tag) use ($p, $opts): int {
    $c = new RLClient();
    $lock = new RedisLock('job', $opts);
    if (!$lock->acquire(15000)) {
        return 2;
    }
    $c->cmd('RPUSH', $p . 'got', (string) $n);
    if (!rl_cont_until(fn() => $c->cmd('EXISTS', $p . "go:$tag") === 1, 15000)) {
        return 3;
    }
    return $lock->release() ? 0 : 4;
};
$got = fn() => $a->cmd('LRANGE', $p . 'got', '0', '-1');

echo "-- the releaser cannot take it back\n";
$rounds = rl_cont_memcheck() ? 2 : 5;
$taken_back = $handed = 0;
$codes = [];
$holder = new RedisLock('job', $opts);
for ($r = 0; $r < $rounds; $r++) {
    $a->cmd('DEL', $p . 'got');
    if (!$holder->acquire(5000)) {
        echo "round $r: the holder could not take the free lock\n";
        break;
    }
    $pid = rl_cont_spawn(fn() => $waiter($r, "round$r"));
    if (!rl_cont_until(fn() => $blocked() === 1, 10000)) {
        echo "round $r: the waiter never blocked on every server\n";
    }
    /* The waiter cannot act until the releaser has tried: whatever it gets,
     * the servers gave it on their own. */
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
    $pids[] = rl_cont_spawn(fn() => $waiter($n, "order$n"));
    /* The next one starts only when this one sleeps in BLPOP everywhere. */
    rl_cont_until(fn() => $blocked() === $n + 1, 10000);
}
echo 'blocked: ', $blocked(), "\n";
$holder->release();
for ($n = 0; $n < 3; $n++) {
    rl_cont_until(fn() => count($got()) === $n + 1, 10000);
    $a->cmd('SET', $p . "go:order$n", '1');
}
echo 'order: ', implode(' ', $got()), "\n";
echo 'exit codes: ', implode(' ', array_map('rl_cont_reap', $pids)), "\n";
echo 'the key is gone everywhere: ', json_encode(rl_quorum_values($servers, $p . 'job') === [null, null, null]), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
$a = rl_admin();
foreach (['got', 'go:order0', 'go:order1', 'go:order2', 'go:round0', 'go:round1', 'go:round2', 'go:round3', 'go:round4'] as $k) {
    $a->cmd('DEL', "rltest:quorum_wait_handover:$k");
}
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
the key is gone everywhere: true
