--TEST--
redis-cluster://: forked workers doing non-atomic increments under one lock lose no update through a replica failover (CLUSTER FAILOVER) of the lock's master, and carry on on the new master
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
$c = new RLCluster();
$dir = RL_RUNDIR . '/cluster-workers-' . getmypid();
@mkdir($dir, 0700, true);
$counter = "$dir/counter";
$stop = "$dir/stop";
file_put_contents($counter, '0');
const WORKERS = 3;
$old = $c->masterOf($c->slot('cluster:workers'));
$replica = $c->replicaOf($old);

$pid = pcntl_fork();
if ($pid === 0) {
    $codes = rl_fork(WORKERS, function (int $w) use ($c, $counter, $stop, $dir): int {
        $done = 0;
        $end = microtime(true) + 60;
        $lock = new RedisLock('cluster:workers', ['servers' => $c->dsn(), 'ttl' => 5000, 'connect_timeout' => 500,
            'read_timeout' => 500]);
        while (!file_exists($stop) && microtime(true) < $end) {
            try {
                if (!$lock->acquire(1000)) {
                    continue;
                }
                $v = (int) file_get_contents($counter);
                usleep(2000);
                file_put_contents($counter, (string) ($v + 1));
                file_put_contents("$dir/worker$w", (string) ++$done);
                $lock->release();
            } catch (RedisLockException) {
                usleep(50000);
            }
        }
        return 0;
    });
    exit(array_sum($codes) === 0 ? 0 : 1);
}

$wait_for = function (int $n, int $ms) use ($counter): bool {
    for ($i = 0; $i < $ms / 20; $i++) {
        if ((int) @file_get_contents($counter) >= $n) {
            return true;
        }
        usleep(20000);
    }
    return false;
};
var_dump($wait_for(20, 10000));
var_dump($c->client($replica)->cmd('CLUSTER', 'FAILOVER'));
/* Done when the replica says it is the master (10 s at most). */
for ($i = 0; $i < 500 && ($c->client($replica)->cmd('ROLE')[0] ?? '') !== 'master'; $i++) {
    usleep(20000);
}
var_dump($c->client($replica)->cmd('ROLE')[0]);
$before = (int) file_get_contents($counter);
var_dump($wait_for($before + 20, 15000));
touch($stop);
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));

$sum = 0;
for ($w = 0; $w < WORKERS; $w++) {
    $sum += (int) @file_get_contents("$dir/worker$w");
}
$final = (int) file_get_contents($counter);
echo $final === $sum ? "no lost update\n" : "LOST UPDATES: counter $final, increments $sum\n";
var_dump($c->client($replica)->cmd('EXISTS', 'cluster:workers'));
exec('rm -rf ' . escapeshellarg($dir));
?>
--EXPECT--
bool(true)
string(2) "OK"
string(6) "master"
bool(true)
int(0)
no lost update
int(0)
