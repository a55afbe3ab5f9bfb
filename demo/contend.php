<?php
/*
 * demo/contend.php: several processes share one counter in Redis and update
 * it the unsafe way (GET, think a little, SET the value + 1). A RedisLock
 * named 'demo:counter' around that read-modify-write makes it safe: at the
 * end the counter equals the number of increments the workers made.
 *
 *   php demo/contend.php [--port=6379] [--workers=8] [--seconds=3] [--no-lock]
 *
 * --no-lock runs the same workers without the lock, to see updates get lost.
 * Exits 0 when no update was lost and every worker finished cleanly.
 * scripts/demo.sh starts a private redis-server and runs this with the
 * extensions loaded.
 */

$opt = getopt('', ['port:', 'workers:', 'seconds:', 'no-lock']);
$port = (int) ($opt['port'] ?? 6379);
$workers = max(1, min(64, (int) ($opt['workers'] ?? 8)));
$seconds = max(1, min(60, (int) ($opt['seconds'] ?? 3)));
$useLock = !isset($opt['no-lock']);

foreach (['redislock', 'redis', 'pcntl'] as $ext) {
    if (!extension_loaded($ext)) {
        fwrite(STDERR, "demo/contend.php needs the $ext extension (scripts/demo.sh loads what it needs)\n");
        exit(2);
    }
}

const COUNTER = 'demo:counter';   // the data: a plain Redis string
const REPORT = 'demo:report';     // where workers leave their totals

$lockOptions = ['servers' => "redis://127.0.0.1:$port", 'prefix' => 'lock:', 'ttl' => 5000];

function data_client(int $port): Redis
{
    $r = new Redis();
    $r->connect('127.0.0.1', $port, 1.0);
    return $r;
}

/* One worker: until the deadline, take the lock (waiting up to 2 s), read
 * the counter, "work" 2-10 ms, write it back plus one, release. Returns the
 * exit code: 0, or 1 when the lock was lost while held. */
function worker(int $id, int $port, array $lockOptions, bool $useLock, float $deadline): int
{
    $before = RedisLock::stats();   // counters are per process; a child starts with its parent's
    $r = data_client($port);
    $lock = new RedisLock('demo:counter', $lockOptions);
    $increments = $timeouts = $maxWait = 0;
    $code = 0;
    while (microtime(true) < $deadline) {
        $t0 = hrtime(true);
        if ($useLock && !$lock->acquire(2000)) {
            $timeouts++;
            continue;
        }
        $waited = intdiv(hrtime(true) - $t0, 1000000);
        $maxWait = max($maxWait, $waited);

        $old = (int) $r->get(COUNTER);
        usleep(random_int(2000, 10000));
        $r->set(COUNTER, (string) ($old + 1));
        $increments++;
        $how = $useLock ? sprintf('got the lock (waited %d ms)', $waited) : 'no lock';
        echo "worker $id $how, counter $old -> ", $old + 1, "\n";

        if ($useLock && !$lock->release()) {
            echo "worker $id: the lock expired or was taken over while held\n";
            $code = 1;
        }
        usleep(random_int(0, 3000));   // work that needs no lock
    }
    $after = RedisLock::stats();
    $r->hIncrBy(REPORT, 'increments', $increments);
    $r->hIncrBy(REPORT, 'timeouts', $timeouts);
    $r->hIncrBy(REPORT, "increments:$id", $increments);
    $r->hIncrBy(REPORT, "maxwait:$id", $maxWait);
    foreach ($after as $k => $v) {
        $r->hIncrBy(REPORT, "stats:$k", $v - ($before[$k] ?? 0));
    }
    return $code;
}

/* Start from zero, under the lock like every other write of the counter. */
$lock = new RedisLock('demo:counter', $lockOptions);
$r = data_client($port);
$lock->run(function () use ($r) {
    $r->del(REPORT);
    $r->set(COUNTER, '0');
}, 2000);
$r->close();

printf("%d workers contend for the lock 'demo:counter' for %d s%s\n\n",
    $workers, $seconds, $useLock ? '' : ' -- WITHOUT taking it (--no-lock)');
$deadline = microtime(true) + $seconds;
$pids = [];
for ($i = 1; $i <= $workers; $i++) {
    $pid = pcntl_fork();
    if ($pid === -1) {
        fwrite(STDERR, "fork failed\n");
        exit(2);
    }
    if ($pid === 0) {
        $code = 1;
        try {
            $code = worker($i, $port, $lockOptions, $useLock, $deadline);
        } catch (Throwable $e) {
            echo "worker $i failed: ", get_class($e), ': ', $e->getMessage(), "\n";
        }
        exit($code);
    }
    $pids[$i] = $pid;
}
$failed = [];
foreach ($pids as $i => $pid) {
    pcntl_waitpid($pid, $status);
    if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
        $failed[] = $i;
    }
}

/* Read the result under the lock too. */
$r = data_client($port);
$counter = (int) $lock->run(fn() => $r->get(COUNTER), 2000);
$report = $r->hGetAll(REPORT);
$total = (int) ($report['increments'] ?? 0);

echo "\n";
$per = [];
$waits = [];
for ($i = 1; $i <= $workers; $i++) {
    $per[] = (int) ($report["increments:$i"] ?? 0);
    $waits[] = (int) ($report["maxwait:$i"] ?? 0);
}
printf("increments per worker: %s (total %d)\n", implode(' ', $per), $total);
if ($useLock) {
    printf("longest wait per worker (ms): %s; waits that ran out: %d\n",
        implode(' ', $waits), (int) ($report['timeouts'] ?? 0));
    $sum = [];
    foreach (array_keys(RedisLock::stats()) as $k) {
        $sum[] = "$k " . (int) ($report["stats:$k"] ?? 0);
    }
    echo "workers' RedisLock::stats(), summed: ", implode(', ', $sum), "\n";
}
$own = RedisLock::stats();
echo 'parent\'s RedisLock::stats(): ',
    implode(', ', array_map(fn($k, $v) => "$k $v", array_keys($own), $own)), "\n\n";

$ok = $counter === $total && $total > 0 && !$failed;
if ($failed) {
    echo 'workers that failed: ', implode(' ', $failed), "\n";
}
if ($counter === $total) {
    echo "counter = $counter = total increments: no lost update\n";
} else {
    printf("counter = %d but workers made %d increments: %d updates LOST\n", $counter, $total, $total - $counter);
}
$r->del(COUNTER, REPORT);
exit($ok ? 0 : 1);
