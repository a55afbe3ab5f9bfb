<?php
/*
 * bench/atomic.php: W forked workers (default 8) incrementing one key for a
 * fixed time, in rounds that alternate the variants (the order swapped each
 * round, so that load from elsewhere on the machine falls on both alike):
 *
 *   Atomic::update()   GET, $fn, compareAndSet by EVALSHA of lua/atomic_cas.lua
 *                      (2 round trips an attempt), random sleeps between retries
 *   phpredis WATCH     WATCH, GET, MULTI, SET, EXEC, again at once while EXEC
 *                      returns nil (5 round trips an attempt: phpredis reads each
 *                      reply, +QUEUED included, before sending the next command)
 *
 * Reports successful updates per second (all workers together), round trips
 * per successful update (RedisLock::stats() 'commands' for update(), 5 per
 * attempt for the WATCH loop) and checks that the key ends at the number of
 * successful updates (no update lost). Target: update() >= 1.3 x the WATCH
 * loop's updates per second.
 *
 *   REDISLOCK_BENCH_PORTS               the server (bench/run.sh sets it; the first port is used)
 *   REDISLOCK_BENCH_ATOMIC_WORKERS      W (default 8)
 *   REDISLOCK_BENCH_ATOMIC_MS           run time of a variant in one round (default 2000)
 *   REDISLOCK_BENCH_ROUNDS              rounds (default 5)
 */
require __DIR__ . '/bench.inc';

[$port] = bench_ports(1);
$workers = max(1, (int) (getenv('REDISLOCK_BENCH_ATOMIC_WORKERS') ?: 8));
$runMs = max(100, (int) (getenv('REDISLOCK_BENCH_ATOMIC_MS') ?: 2000));
$rounds = bench_rounds();
$key = 'bench:atomic:counter';

/* One worker's loop from $start to $end (hrtime ns): [successes, attempts, round trips]. */
function worker(string $variant, int $port, string $key, int $start, int $end): array
{
    $ok = $attempts = $trips = 0;
    if ($variant === 'Atomic::update()') {
        $a = new RedisLock\Atomic($key, ['servers' => "redis://127.0.0.1:$port"]);
        $a->get(); /* connected before the clock starts */
        $c0 = RedisLock::stats();
        while (hrtime(true) < $start);
        while (hrtime(true) < $end) {
            $a->update(fn (?string $v) => (string) ((int) $v + 1), 100000);
            $ok++;
        }
        $c1 = RedisLock::stats();
        $trips = $c1['commands'] - $c0['commands'];
        $attempts = $ok + $c1['atomic_retries'] - $c0['atomic_retries'];
        return [$ok, $attempts, $trips];
    }
    $r = new Redis();
    $r->connect('127.0.0.1', $port);
    $r->ping();
    while (hrtime(true) < $start);
    while (hrtime(true) < $end) {
        $attempts++;
        $r->watch($key);
        $v = $r->get($key);
        $r->multi();
        $r->set($key, (string) ((int) $v + 1));
        if ($r->exec()) {
            $ok++;
        }
    }
    return [$ok, $attempts, 5 * $attempts];
}

/* Runs one variant in $workers forked children for $runMs; returns
 * [updates/s, attempts per update, round trips per update, lost updates]. */
function run_variant(string $variant, int $workers, int $port, string $key, int $runMs): array
{
    $admin = new Redis();
    $admin->connect('127.0.0.1', $port);
    $admin->set($key, '0');
    $start = hrtime(true) + 300000000; /* every child forked and connected by then */
    $end = $start + $runMs * 1000000;
    $files = $pids = [];
    for ($i = 0; $i < $workers; $i++) {
        $files[$i] = tempnam(sys_get_temp_dir(), 'rlbench');
        $pid = pcntl_fork();
        if ($pid === 0) {
            file_put_contents($files[$i], json_encode(worker($variant, $port, $key, $start, $end)));
            exit(0);
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
    }
    $ok = $attempts = $trips = 0;
    foreach ($files as $f) {
        [$o, $a, $t] = json_decode((string) file_get_contents($f), true) ?? [0, 0, 0];
        $ok += $o;
        $attempts += $a;
        $trips += $t;
        unlink($f);
    }
    $lost = $ok - (int) $admin->get($key);
    return [$ok / ($runMs / 1000), $attempts / max(1, $ok), $trips / max(1, $ok), $lost];
}

$variants = ['Atomic::update()', 'phpredis WATCH/MULTI/EXEC'];
$rates = $perAttempts = $perTrips = array_fill_keys($variants, []);
$lost = 0;
for ($r = 0; $r < $rounds; $r++) {
    foreach ($r % 2 ? array_reverse($variants) : $variants as $v) {
        [$rate, $att, $trips, $l] = run_variant($v, $workers, $port, $key, $runMs);
        $rates[$v][] = $rate;
        $perAttempts[$v][] = $att;
        $perTrips[$v][] = $trips;
        $lost += $l;
    }
}

printf("single server (127.0.0.1:%d), %d forked workers incrementing one key, %d rounds of %d ms per variant\n\n",
    $port, $workers, $rounds, $runMs);
echo "successful updates/s (all workers):\n";
bench_table($rates);
echo "\nspread (max - min) / median, attempts and round trips per successful update (medians):\n";
foreach ($variants as $v) {
    $m = bench_median($rates[$v]);
    printf("  %-28s spread %5.1f%%   attempts %5.2f   round trips %5.2f\n", $v,
        100 * (max($rates[$v]) - min($rates[$v])) / $m, bench_median($perAttempts[$v]), bench_median($perTrips[$v]));
}
echo "\nratios of medians:\n";
bench_ratio('Atomic::update() / phpredis WATCH loop', bench_median($rates[$variants[0]]) / bench_median($rates[$variants[1]]), 1.3);
printf("\nupdates lost (successes not in the key): %d\n", $lost);
