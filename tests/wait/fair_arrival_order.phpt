--TEST--
Fair mode: waiters get the lock in the order they arrived
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:fair_arrival_order:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000, 'fair' => true];
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
        (new RLClient())->cmd('RPUSH', $p . 'order', (string) $i);
        usleep(20000);
        return $lock->release() ? 0 : 3;
    });
    /* The next one starts once this one is queued, and 50 ms later. */
    $queued = rl_cont_until(fn() => $a->cmd('LLEN', $p . 'job:redislock-queue') === $i + 1, 10000);
    echo "waiter $i queued: ", json_encode($queued), "\n";
    usleep(50000);
}
var_dump($holder->release());
echo 'exit codes: ', implode(' ', array_map('rl_cont_reap', $pids)), "\n";
echo 'order: ', implode(' ', $a->cmd('LRANGE', $p . 'order', '0', '-1')), "\n";
echo 'queue left: ', $a->cmd('EXISTS', $p . 'job:redislock-queue', $p . 'job:redislock-queue-exp'), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fair_arrival_order:');
?>
--EXPECT--
bool(true)
waiter 0 queued: true
waiter 1 queued: true
waiter 2 queued: true
waiter 3 queued: true
waiter 4 queued: true
bool(true)
exit codes: 0 0 0 0 0
order: 0 1 2 3 4
queue left: 0
