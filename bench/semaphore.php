<?php
/*
 * bench/semaphore.php: RedisLock\Semaphore, in the same run as its baselines.
 *
 * 1. Uncontended: one acquire + release cycle of a Semaphore (one script
 *    each way) against a RedisLock cycle, both objects reused, interleaved
 *    in turns. Target: a Semaphore cycle costs at most 1.1x a RedisLock one.
 * 2. Contended: W = 8 forked workers share a limit of 2 for a fixed time,
 *    each section a short hold; critical sections per second, of
 *      RedisLock\Semaphore   acquire($wait): woken by releases
 *      Symfony RedisStore    Symfony's Semaphore (5.4) over phpredis, which
 *                            cannot wait: acquire() again after 1 ms
 *    in rounds that alternate the two. Target: >= 2x Symfony's.
 *
 * Settings: REDISLOCK_BENCH_PORTS (bench/run.sh), REDISLOCK_BENCH_ROUNDS,
 * REDISLOCK_BENCH_ROUND_MS; REDISLOCK_BENCH_SEMAPHORE_HOLD_US (default 200).
 */
require __DIR__ . '/bench.inc';

[$port] = bench_ports(1);
$rounds = bench_rounds();
$ms = bench_round_ms();
$opts = ['servers' => "redis://127.0.0.1:$port", 'prefix' => 'bench:semaphore:', 'ttl' => 10000];

$lock = new RedisLock('lock', $opts);
$sem = new RedisLock\Semaphore('sem', 4, $opts);
printf("1. uncontended cycles/s (127.0.0.1:%d), %d rounds of %d ms each, interleaved in %d ms turns\n\n",
    $port, $rounds, $ms, bench_slice_ms());
$results = bench_run([
    'RedisLock acquire + release' => fn() => $lock->acquire() && $lock->release(),
    'Semaphore acquire + release' => fn() => $sem->acquire() && $sem->release(),
], $rounds, $ms);
bench_table($results);
$ratios = array_map(fn($l, $s) => $l / $s, $results['RedisLock acquire + release'], $results['Semaphore acquire + release']);
sort($ratios);
printf("\n  Semaphore cycle time / RedisLock cycle time: median %.2f (range %.2f-%.2f)  (target <= 1.10: %s)\n",
    bench_median($ratios), $ratios[0], end($ratios), bench_median($ratios) <= 1.10 ? 'met' : 'NOT met');

/* 2. Contended. */
$workers = 8;
$limit = 2;
$hold = (int) (getenv('REDISLOCK_BENCH_SEMAPHORE_HOLD_US') ?: 200);
$symfony = stream_resolve_include_path('Symfony/Component/Semaphore/autoload.php');
if ($symfony) {
    require_once $symfony;
}

/* Runs the workers for $ms; returns critical sections per second. */
function contended(string $variant, int $workers, int $limit, int $hold, int $ms, array $opts, int $port): float
{
    $r = new Redis();
    $r->connect('127.0.0.1', $port);
    $counter = "bench:semaphore:sections:$variant";
    $r->del($counter);
    $pids = [];
    $start = microtime(true) + 0.2;
    for ($i = 0; $i < $workers; $i++) {
        if (($pid = pcntl_fork()) === 0) {
            $c = new Redis();
            $c->connect('127.0.0.1', $port);
            if ($variant === 'symfony') {
                $store = new Symfony\Component\Semaphore\Store\RedisStore($c);
                $s = (new Symfony\Component\Semaphore\SemaphoreFactory($store))->createSemaphore('bench-symfony', $limit, 1, 10.0);
            } else {
                $s = new RedisLock\Semaphore('bench-ext', $limit, $opts);
            }
            time_sleep_until($start);
            $end = $start + $ms / 1000;
            $n = 0;
            while (microtime(true) < $end) {
                if ($variant === 'symfony') {
                    while (!$s->acquire()) {
                        usleep(1000);
                    }
                } elseif (!$s->acquire(10000)) {
                    exit(2);
                }
                usleep($hold);
                $s->release();
                $n++;
            }
            $c->incrBy($counter, $n);
            exit(0);
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
    }
    return (int) $r->get($counter) / ($ms / 1000);
}

printf("\n2. %d workers, limit %d, hold %d us: critical sections/s, %d rounds of %d ms each\n\n", $workers, $limit, $hold,
    $rounds, $ms);
if (!$symfony) {
    echo "  Symfony's Semaphore is not installed (apt-get install php-symfony-semaphore): skipped\n";
    exit(0);
}
$results = ['RedisLock\Semaphore (woken)' => [], 'Symfony RedisStore (phpredis, 1 ms retry)' => []];
for ($i = 0; $i < $rounds; $i++) {
    $order = $i % 2 ? ['symfony', 'ext'] : ['ext', 'symfony'];
    foreach ($order as $v) {
        $rate = contended($v, $workers, $limit, $hold, $ms, $opts, $port);
        $results[$v === 'ext' ? 'RedisLock\Semaphore (woken)' : 'Symfony RedisStore (phpredis, 1 ms retry)'][] = $rate;
    }
}
bench_table($results);
$ratios = array_map(fn($e, $s) => $e / $s, ...array_values($results));
sort($ratios);
printf("\n  RedisLock\\Semaphore / Symfony: median %.2f (range %.2f-%.2f)  (target >= 2.00: %s)\n",
    bench_median($ratios), $ratios[0], end($ratios), bench_median($ratios) >= 2 ? 'met' : 'NOT met');
