--TEST--
redis-sentinel:// with sync_replicas: forked workers doing non-atomic increments under the lock through a real SENTINEL FAILOVER lose no update, and carry on once the new master has a replica again
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';
$s = new RLSentinels();
$dir = RL_RUNDIR . '/sentinel-workers-' . getmypid();
@mkdir($dir, 0700, true);
$counter = "$dir/counter";
$stop = "$dir/stop";
file_put_contents($counter, '0');
const WORKERS = 3;

/* Each worker: take the lock, read the counter, pause, write it plus one
 * (a lost lock shows as a lost update), release; failures are retried.
 * Its number of increments goes to its own file. Bounded: 60 s at most. */
$codes = [];
$pid = pcntl_fork();
if ($pid === 0) {
    $codes = rl_fork(WORKERS, function (int $w) use ($s, $counter, $stop, $dir): int {
        $done = 0;
        $end = microtime(true) + 60;
        $lock = new RedisLock('sentinel:workers', ['servers' => $s->dsn(), 'sync_replicas' => 1, 'ttl' => 5000,
            'connect_timeout' => 500, 'read_timeout' => 500]);
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

/* Let them run, fail the master over, and wait (25 s at most) for 20 more
 * increments: the new master takes grants once its replica (the old master,
 * reconfigured by the Sentinels) acknowledges them. */
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
$s->failover();
$before = (int) file_get_contents($counter);
var_dump($wait_for($before + 20, 25000));
touch($stop);
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));

$sum = 0;
for ($w = 0; $w < WORKERS; $w++) {
    $sum += (int) @file_get_contents("$dir/worker$w");
}
$final = (int) file_get_contents($counter);
echo $final === $sum ? "no lost update\n" : "LOST UPDATES: counter $final, increments $sum\n";
exec('rm -rf ' . escapeshellarg($dir));
?>
--EXPECT--
bool(true)
bool(true)
int(0)
no lost update
