<?php
/*
 * bench/sentinel_failover.php: what a SENTINEL FAILOVER costs a caller.
 *
 *   php -d extension=modules/redislock.so bench/sentinel_failover.php [RUNS] [REPLICAS] [SYNC_REPLICAS]
 *
 * Each run starts a fresh deployment (tests/sentinel.inc: one master,
 * REPLICAS replicas, three Sentinels on loopback), lets a child process
 * call acquire() + release() on one lock in a loop (connect_timeout and
 * read_timeout 1000 ms, sync_replicas as given), sends SENTINEL FAILOVER two
 * seconds in, and reads the child's log of every call: when it started and
 * ended on the monotonic clock, and how it ended. Per run it prints the
 * calls that did not take the lock after the failover began, how long from
 * SENTINEL FAILOVER to the end of the last of them, and the longest call;
 * then the median and range over the runs.
 */
require __DIR__ . '/../tests/sentinel.inc';
require __DIR__ . '/../tests/proxy.inc';

$runs = (int) ($argv[1] ?? 5);
$replicas = (int) ($argv[2] ?? 1);
$sync = (int) ($argv[3] ?? 0);
$results = [];

for ($run = 0; $run < $runs; $run++) {
    $s = new RLSentinels(null, $replicas);
    $child = rl_proxy_child('
        $l = new RedisLock("bench:failover", ["servers" => $argv[1], "sync_replicas" => (int) $argv[2],
            "connect_timeout" => 1000, "read_timeout" => 1000]);
        $end = hrtime(true) + 20e9;
        while (hrtime(true) < $end) {
            $t = hrtime(true);
            try {
                $how = $l->acquire() ? "ok" : "false";
                $l->release();
            } catch (RedisLockException $e) {
                $how = get_class($e);
            }
            echo $t, " ", hrtime(true), " ", $how, "\n";
            usleep(1000);
        }
    ', [$s->dsn(), (string) $sync]);
    usleep(2000000);
    $t0 = hrtime(true);
    $s->sentinel()->cmd('SENTINEL', 'FAILOVER', RL_SENTINEL_MASTER);
    $failed = 0;
    $last_fail = $t0;
    $longest = 0;
    $kinds = [];
    while (($line = rl_proxy_read_line($child['out'], 30000)) !== null) {
        [$start, $stop, $how] = explode(' ', $line, 3);
        $longest = max($longest, ($stop - $start) / 1e6);
        if ((int) $stop >= $t0 && $how !== 'ok') {
            $failed++;
            $last_fail = max($last_fail, (int) $stop);
            $kinds[$how] = ($kinds[$how] ?? 0) + 1;
        }
    }
    rl_proxy_reap($child);
    $s->stop();
    $window = ($last_fail - $t0) / 1e6;
    $results[] = ['window' => $window, 'failed' => $failed, 'longest' => $longest];
    printf("run %d: %d call(s) without the lock, the last ending %.0f ms after SENTINEL FAILOVER; longest call %.0f ms (%s)\n",
        $run + 1, $failed, $window, $longest, json_encode($kinds));
}

function summary(array $v): string
{
    sort($v);
    $n = count($v);
    $median = $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
    return sprintf('median %.0f, range %.0f-%.0f', $median, $v[0], $v[$n - 1]);
}
printf("replicas %d, sync_replicas %d, %d runs\n", $replicas, $sync, $runs);
printf("ms from SENTINEL FAILOVER to the end of the last call without the lock: %s\n",
    summary(array_column($results, 'window')));
printf("calls without the lock: %s\n", summary(array_column($results, 'failed')));
printf("longest call (ms): %s\n", summary(array_column($results, 'longest')));
