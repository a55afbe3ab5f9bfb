<?php
/*
 * bench/zookeeper_worker.php MODE MS HOSTS [WORKERS]: one measurement of
 * RedisLock\ZooKeeperLock for bench/zookeeper.php (which interleaves it with
 * the kazoo baseline, bench/zookeeper_kazoo.py, doing the same):
 *
 *   single      one object: acquire() + release() in a loop for MS ms
 *   contention  WORKERS forked processes, each with its own session, taking
 *               one lock in turn (acquire waiting, release at once) for MS ms
 *
 * Prints one number: cycles (critical sections) per second.
 */
[, $mode, $ms, $hosts] = $argv;
$ms = (int) $ms;
$opts = ['hosts' => $hosts, 'root' => '/redislock-bench'];

if ($mode === 'single') {
    $l = new RedisLock\ZooKeeperLock('single-' . getmypid(), $opts);
    for ($i = 0; $i < 20; $i++) { /* warm-up: the parents exist, the session is up */
        $l->acquire();
        $l->release();
    }
    $n = 0;
    $start = hrtime(true);
    $end = $start + $ms * 1000000;
    do {
        for ($i = 0; $i < 10; $i++) {
            if (!$l->acquire() || !$l->release()) {
                throw new RuntimeException('uncontended acquire or release failed');
            }
        }
        $n += 10;
        $now = hrtime(true);
    } while ($now < $end);
    printf("%.1f\n", $n / (($now - $start) / 1e9));
    exit(0);
}

$workers = (int) ($argv[4] ?? 8);
$start = hrtime(true) + 2000000000; /* every worker connected by then */
$end = $start + $ms * 1000000;
$files = [];
$pids = [];
for ($w = 0; $w < $workers; $w++) {
    $files[$w] = tempnam(sys_get_temp_dir(), 'zkbench');
    $pid = pcntl_fork();
    if ($pid === 0) {
        $l = new RedisLock\ZooKeeperLock('contended', $opts);
        $l->acquire(60000);
        $l->release();
        while (hrtime(true) < $start) {
            usleep(1000);
        }
        $n = 0;
        while (hrtime(true) < $end) {
            if (!$l->acquire(60000)) {
                exit(1);
            }
            $l->release();
            $n++;
        }
        file_put_contents($files[$w], (string) $n);
        exit(0);
    }
    $pids[] = $pid;
}
$total = 0;
foreach ($pids as $w => $pid) {
    pcntl_waitpid($pid, $status);
    if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
        throw new RuntimeException('a worker failed');
    }
    $total += (int) file_get_contents($files[$w]);
    unlink($files[$w]);
}
printf("%.1f\n", $total / ($ms / 1000));
