<?php
/*
 * bench/semaphore.php: RedisLock\Semaphore, in the same run as its baselines.
 *
 * 1. Uncontended: one acquire + release cycle of a Semaphore (one script
 *    each way) against a RedisLock cycle, both objects reused, interleaved
 *    in turns. Target: a Semaphore cycle costs at most 1.1x a RedisLock one.
 * 2. Contended: W = 8 forked workers share a limit of 2, then of 4, each
 *    section a hold of 1 ms, then of 5 ms (usleep), each worker then working
 *    outside for as long again before it asks anew (a worker that asks
 *    again at once mostly gets back the permit it just gave, however long
 *    the others have waited: with retries of 100 ms, two workers then keep
 *    both permits and six starve; THINK = 0 shows that), for a fixed time
 *    per variant and round:
 *      RedisLock\Semaphore   acquire($wait): woken by releases
 *      Symfony, retry R ms   Symfony's Semaphore (5.4, RedisStore over
 *                            phpredis), which cannot wait: the caller loops
 *                            acquire() with a sleep. Its docs show no loop;
 *                            Symfony's Lock, for stores that cannot wait,
 *                            sleeps 100 ms +- 10 between tries. R = 1, 10 and
 *                            100 (+- 10%, as Symfony's Lock).
 *    The variants take turns within each round, the order rotating. For each:
 *    critical sections per second (all workers), the wait from the first
 *    try to the grant (p50 and p99 over every section of the round), how
 *    evenly the workers got in (fewest / most sections of one worker), and
 *    the server's CPU per section (INFO cpu, user + sys, over the round).
 *    Target: >= 2x Symfony's sections/s.
 *
 * Settings: REDISLOCK_BENCH_PORTS (bench/run.sh), REDISLOCK_BENCH_ROUNDS,
 * REDISLOCK_BENCH_ROUND_MS; REDISLOCK_BENCH_SEMAPHORE_HOLDS_US (default
 * "1000,5000"), REDISLOCK_BENCH_SEMAPHORE_LIMITS (default "2,4"),
 * REDISLOCK_BENCH_SEMAPHORE_RETRIES_MS (default "1,10,100"),
 * REDISLOCK_BENCH_SEMAPHORE_THINK (the work outside, in holds; default 1),
 * REDISLOCK_BENCH_SEMAPHORE_CONTENDED=0 (part 1 only).
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
$ratio_lines = [['Semaphore cycle time / RedisLock cycle time', bench_median($ratios)]];

/* 2. Contended. */
$workers = 8;
$list = fn(string $name, string $default) => array_map('intval', explode(',', getenv($name) ?: $default));
$holds = $list('REDISLOCK_BENCH_SEMAPHORE_HOLDS_US', '1000,5000');
$limits = getenv('REDISLOCK_BENCH_SEMAPHORE_CONTENDED') === '0' ? [] : $list('REDISLOCK_BENCH_SEMAPHORE_LIMITS', '2,4');
$retries = $list('REDISLOCK_BENCH_SEMAPHORE_RETRIES_MS', '1,10,100');
$think = getenv('REDISLOCK_BENCH_SEMAPHORE_THINK');
$think = $think === false || $think === '' ? 1.0 : (float) $think;
$symfony = stream_resolve_include_path('Symfony/Component/Semaphore/autoload.php');
if ($symfony) {
    require_once $symfony;
}

/* The server's CPU so far, in us (user + sys). */
function server_cpu_us(Redis $r): float
{
    $c = $r->info('cpu');
    return ($c['used_cpu_user'] + $c['used_cpu_sys']) * 1e6;
}

/* Runs the workers for $ms, each looping acquire, hold $hold us, release,
 * $think us of work outside.
 * $retry: 0 for RedisLock\Semaphore, else Symfony's with that many ms
 * between tries. Returns [sections/s, waits in us (every section), sections
 * per worker, server CPU us per section]. */
function contended(int $retry, int $workers, int $limit, int $hold, int $think, int $ms, array $opts, int $port): array
{
    $r = new Redis();
    $r->connect('127.0.0.1', $port);
    $name = 'bench-contended-' . bin2hex(random_bytes(4));
    $pids = $files = [];
    $start = microtime(true) + 0.2;
    for ($i = 0; $i < $workers; $i++) {
        $files[$i] = tempnam(sys_get_temp_dir(), 'semaphore-bench');
        if (($pid = pcntl_fork()) === 0) {
            if ($retry) {
                $c = new Redis();
                $c->connect('127.0.0.1', $port);
                $store = new Symfony\Component\Semaphore\Store\RedisStore($c);
                $s = (new Symfony\Component\Semaphore\SemaphoreFactory($store))->createSemaphore($name, $limit, 1, 10.0);
                $jitter = intdiv($retry * 1000, 10);
            } else {
                $s = new RedisLock\Semaphore($name, $limit, $opts);
            }
            time_sleep_until($start);
            $end = hrtime(true) + $ms * 1000000;
            $waits = [];
            while (($t0 = hrtime(true)) < $end) {
                if ($retry) {
                    while (!$s->acquire()) {
                        usleep($retry * 1000 + ($jitter ? random_int(-$jitter, $jitter) : 0));
                    }
                } elseif (!$s->acquire(10000)) {
                    exit(2);
                }
                $waits[] = intdiv(hrtime(true) - $t0, 1000);
                usleep($hold);
                $s->release();
                if ($think) {
                    usleep($think);
                }
            }
            file_put_contents($files[$i], pack('V*', ...$waits));
            exit(0);
        }
        $pids[] = $pid;
    }
    time_sleep_until($start);
    $cpu = server_cpu_us($r);
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
        if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
            throw new RuntimeException("a worker failed (status $status)");
        }
    }
    $cpu = server_cpu_us($r) - $cpu;
    $waits = $per = [];
    foreach ($files as $f) {
        $w = array_values(unpack('V*', file_get_contents($f)) ?: []);
        unlink($f);
        $per[] = count($w);
        array_push($waits, ...$w);
    }
    sort($waits);
    $n = count($waits);
    return [$n / ($ms / 1000), $waits, $per, $n ? $cpu / $n : 0.0];
}

function percentile(array $sorted, float $p): float
{
    return $sorted ? $sorted[min(count($sorted) - 1, (int) floor($p * count($sorted)))] : 0.0;
}

if (!$symfony) {
    echo "\n2. Symfony's Semaphore is not installed (apt-get install php-symfony-semaphore): skipped\n";
    $limits = [];
}
foreach ($limits as $limit) {
    foreach ($holds as $hold) {
        printf("\n2. %d workers, limit %d, hold %.1f ms, then %.1f ms outside (ceiling %d sections/s): %d rounds of %d ms"
            . " per variant\n\n", $workers, $limit, $hold / 1000, $hold * $think / 1000,
            (int) min($limit * 1e6 / $hold, $workers * 1e6 / ($hold * (1 + $think))), $rounds, $ms);
        $variants = ['RedisLock\Semaphore (woken)' => 0];
        foreach ($retries as $retry) {
            $variants["Symfony, retry $retry ms"] = $retry;
        }
        $names = array_keys($variants);
        $rates = $p50 = $p99 = $spread = $cpu = array_fill_keys($names, []);
        for ($i = 0; $i < $rounds; $i++) {
            $shift = $i % count($names);
            foreach (array_merge(array_slice($names, $shift), array_slice($names, 0, $shift)) as $v) {
                [$rate, $waits, $per, $us] = contended($variants[$v], $workers, $limit, $hold, (int) ($hold * $think), $ms, $opts,
                    $port);
                $rates[$v][] = $rate;
                $p50[$v][] = percentile($waits, 0.5) / 1000;
                $p99[$v][] = percentile($waits, 0.99) / 1000;
                $spread[$v][] = max($per) ? min($per) / max($per) : 0;
                $cpu[$v][] = $us;
            }
        }
        bench_table($rates);
        echo "\n", str_pad('median of the rounds', 30), '  sections/s   wait p50   wait p99   fewest/most   server CPU/section', "\n";
        foreach ($names as $v) {
            printf("%-30s %11.0f %8.2f ms %8.2f ms %13.2f %14.1f us\n", $v, bench_median($rates[$v]), bench_median($p50[$v]),
                bench_median($p99[$v]), bench_median($spread[$v]), bench_median($cpu[$v]));
        }
        echo "\n";
        foreach (array_slice($names, 1) as $v) {
            $ratios = array_map(fn($e, $s) => $e / $s, $rates[$names[0]], $rates[$v]);
            sort($ratios);
            printf("  RedisLock\\Semaphore / %-22s median %.2f (rounds %.2f-%.2f)  (target >= 2.00: %s)\n", $v . ':',
                bench_median($ratios), $ratios[0], end($ratios), bench_median($ratios) >= 2 ? 'met' : 'NOT met');
            $ratio_lines[] = [sprintf('limit %d, hold %.1f ms: sections/s / %s', $limit, $hold / 1000, $v),
                bench_median($ratios)];
        }
    }
}

/* The medians again, in bench_ratio()'s form, for bench/compare.sh. */
echo "\nratios (medians of the rounds' ratios)\n";
foreach ($ratio_lines as [$label, $ratio]) {
    bench_ratio($label, $ratio);
}
