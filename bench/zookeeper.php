<?php
/*
 * bench/zookeeper.php: RedisLock\ZooKeeperLock against kazoo's Lock recipe
 * (Debian's python3-kazoo) on one private ZooKeeper server (tests/zookeeper.inc:
 * standalone, loopback, default fsync on every write), for context:
 *
 *   single      uncontended acquire + release, one client
 *   contention  8 forked workers with a session each, one lock taken in turn
 *
 * Each measurement is a process of its own (bench/zookeeper_worker.php,
 * bench/zookeeper_kazoo.py) that connects and warms up before timing. The
 * two clients alternate within each round (the order flips every round), so
 * that load from elsewhere on the machine falls on both alike. Prints every
 * round, the median, the spread (min to max) and the ratio of the medians.
 *
 * Settings (environment): REDISLOCK_BENCH_ROUNDS (default 5),
 * REDISLOCK_BENCH_ROUND_MS (default 2000), REDISLOCK_BENCH_ZK_WORKERS (default 8).
 * Run through bench/zookeeper.sh.
 */
require __DIR__ . '/../tests/zookeeper.inc';
require __DIR__ . '/bench.inc';

$rounds = bench_rounds();
$ms = bench_round_ms();
$workers = max(2, (int) (getenv('REDISLOCK_BENCH_ZK_WORKERS') ?: 8));
$zk = new RLZooKeeper();
$php = [PHP_BINARY, '-n', '-d', 'extension=' . getenv('REDISLOCK_BENCH_MODULE')];
$clients = [
    'ZooKeeperLock' => array_merge($php, [__DIR__ . '/zookeeper_worker.php']),
    'kazoo Lock' => ['/usr/bin/python3', __DIR__ . '/zookeeper_kazoo.py'],
];

/* Runs one measurement; returns its cycles per second. */
function measure(array $cmd, string $mode, int $ms, string $hosts, int $workers): float
{
    $line = implode(' ', array_map('escapeshellarg', array_merge($cmd, [$mode, (string) $ms, $hosts,
        (string) $workers])));
    $out = shell_exec($line . ' 2>&1');
    if (!is_string($out) || !preg_match('/^\d+(\.\d+)?$/', trim($out))) {
        throw new RuntimeException("measurement failed: $line\n$out");
    }
    return (float) trim($out);
}

echo 'machine: ', trim((string) shell_exec('nproc')), ' CPUs; ZooKeeper ',
    trim((string) shell_exec('dpkg-query -W -f \'${Version}\' zookeeper 2>/dev/null')) ?: '(version unknown)',
    ' standalone; kazoo ', trim((string) shell_exec("/usr/bin/python3 -c 'import kazoo.version as v; print(v.__version__)'")),
    "; $rounds rounds of $ms ms per client\n";
foreach (['single' => 'uncontended acquire + release, cycles/s',
          'contention' => "$workers workers, one lock, critical sections/s"] as $mode => $title) {
    echo "\n== $mode: $title\n";
    $results = array_fill_keys(array_keys($clients), []);
    for ($r = 0; $r < $rounds; $r++) {
        $names = array_keys($clients);
        if ($r % 2) {
            $names = array_reverse($names);
        }
        foreach ($names as $name) {
            $results[$name][] = measure($clients[$name], $mode, $ms, $zk->hosts(), $workers);
        }
    }
    bench_table($results);
    foreach ($results as $name => $values) {
        printf("  %-14s spread %.0f .. %.0f (%.0f%% of the median)\n", $name, min($values), max($values),
            100 * (max($values) - min($values)) / bench_median($values));
    }
    bench_ratio('ZooKeeperLock / kazoo (medians)', bench_median($results['ZooKeeperLock'])
        / bench_median($results['kazoo Lock']));
}
