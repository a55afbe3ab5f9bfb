--TEST--
ZooKeeperLock: waiters get the lock in the order they queued, each watching only the node before its own (one watch per waiter)
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php
require __DIR__ . '/../zookeeper.inc';
if ($why = rl_zk_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../zookeeper.inc';
$zk = new RLZooKeeper();
$opts = ['hosts' => $zk->hosts(), 'connect_timeout' => RL_ZK_CONNECT];
$file = RL_RUNDIR . '/zk_fifo_order.' . getmypid();
file_put_contents($file, '');

$holder = new RedisLock\ZooKeeperLock('fifo', $opts);
var_dump($holder->acquire());

/* Waiters queue one after the other: each starts once the one before has its node. */
$n = 4;
$pids = [];
for ($i = 0; $i < $n; $i++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $l = new RedisLock\ZooKeeperLock('fifo', $opts);
        $ok = $l->acquire(60000);
        file_put_contents($file, "$i ", FILE_APPEND);
        $l->release();
        exit($ok ? 0 : 1);
    }
    $pids[] = $pid;
    rl_zk_until(fn() => count($zk->queue('/redislock/fifo')) === $i + 2, 30000);
}
$queue = $zk->queue('/redislock/fifo');
var_dump(count($queue) === $n + 1, $queue[0] === $holder->token());

echo "each waiter watches exactly the node before its own, and nothing else\n";
$ephemerals = $zk->ephemerals();
$expected = [];
for ($i = 1; $i <= $n; $i++) {
    $expected[$ephemerals[$queue[$i]]] = [$queue[$i - 1]];
}
ksort($expected);
$watches = rl_zk_until(function () use ($zk, $expected) {
    $w = $zk->watches();
    ksort($w);
    return $w === $expected;
}, 10000);
var_dump($watches);
if (!$watches) {
    var_dump($zk->watches(), $expected);
}

var_dump($holder->release());
$codes = [];
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
    $codes[] = pcntl_wexitstatus($status);
}
var_dump($codes === array_fill(0, $n, 0));
echo trim(file_get_contents($file)), "\n";
var_dump($zk->ephemerals());
@unlink($file);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
each waiter watches exactly the node before its own, and nothing else
bool(true)
bool(true)
bool(true)
0 1 2 3
array(0) {
}
