<?php
/*
 * bench/contention.php: W forked workers (2, 8 and 32 by default) contend
 * for one lock on one local redis-server for a fixed time each; every
 * critical section holds the lock for a short sleep. For each variant it
 * reports critical sections per second, the wait (from calling acquire to
 * holding the lock) at p50, p99 and max, the mean hold time, and the
 * commands the server ran per critical section, counted with CONFIG
 * RESETSTAT before and INFO commandstats after:
 *
 *   all          every command, those run inside scripts included
 *                (INFO and CONFIG, sent by this script, left out)
 *   sent         the commands the clients sent themselves: what crosses
 *                the network. RedisLock counts its own (RedisLock::stats()
 *                'commands', connection setup included; fair mode sends its
 *                BLPOP and a lease renewal in one write); for the phpredis
 *                loop they are its SETs and EVALSHAs
 *
 * Variants:
 *   RedisLock wait   acquire($wait): sleeps in BLPOP until a release wakes it
 *   RedisLock fair   the same with 'fair' => true (arrival order)
 *   phpredis poll    SET key token NX PX, usleep(1000) between tries, release
 *                    by EVALSHA of lua/release.lua (the extension's own)
 *
 * Settings (environment):
 *   REDISLOCK_BENCH_PORTS               the server (bench/run.sh sets it; the first port is used)
 *   REDISLOCK_BENCH_CONTENTION_MS       run time per variant and W (default 3000)
 *   REDISLOCK_BENCH_CONTENTION_ROUNDS   rounds the run time is split into (default 3); in each
 *                                       round the variants take turns, so that load from
 *                                       elsewhere on the machine falls on all of them alike
 *   REDISLOCK_BENCH_CONTENTION_WORKERS  comma-separated W values (default 2,8,32)
 *   REDISLOCK_BENCH_CONTENTION_HOLD_US  hold time of a critical section (default 1000)
 *
 * Targets: throughput >= the phpredis loop's, at most 6 commands per
 * critical section (checked against both counts above), and in fair mode a
 * max wait <= 3 x W x mean hold.
 * Needs pcntl (built into the CLI) and phpredis for the baseline.
 */
require __DIR__ . '/bench.inc';

[$port] = bench_ports(1);
$runMs = max(200, (int) (getenv('REDISLOCK_BENCH_CONTENTION_MS') ?: 3000));
$rounds = max(1, (int) (getenv('REDISLOCK_BENCH_CONTENTION_ROUNDS') ?: 3));
$holdUs = max(0, (int) (getenv('REDISLOCK_BENCH_CONTENTION_HOLD_US') ?: 1000));
$workerCounts = array_map('intval', explode(',', getenv('REDISLOCK_BENCH_CONTENTION_WORKERS') ?: '2,8,32'));
$ttl = 10000;
$maxWaitMs = 60000; /* far beyond any wait here: a false acquire is a failure */

$admin = admin($port);
$releaseSha = $admin->script('load', file_get_contents(__DIR__ . '/../lua/release.lua'));
$admin->close();

/*
 * One worker's loop, in a forked child: from $start until $end (hrtime
 * values, the same clock in every process), acquire, hold, release. Returns
 * [sections, failures, waits in ns, total hold ns, RedisLock::stats() delta,
 * the hrtime when done].
 * $cycle(callable $timed) runs one section and returns false when the lock
 * was not taken; $timed() is called the moment it is held and returns
 * nothing.
 */
function worker_loop(int $start, int $end, callable $cycle): array
{
    while (hrtime(true) < $start) {
        usleep(100);
    }
    $waits = [];
    $hold = 0;
    $fail = 0;
    $before = RedisLock::stats();
    while (($t0 = hrtime(true)) < $end) {
        $got = 0;
        if (!$cycle(function () use (&$got) { $got = hrtime(true); })) {
            $fail++;
            continue;
        }
        $waits[] = $got - $t0;
        $hold += hrtime(true) - $got;
    }
    $after = RedisLock::stats();
    $delta = [];
    foreach ($after as $k => $v) {
        $delta[$k] = $v - $before[$k];
    }
    return [count($waits), $fail, $waits, $hold, $delta, hrtime(true)];
}

/* The cycle of each variant, built inside the worker (connections are
 * opened after the fork). */
function make_cycle(string $variant, string $key, int $port, int $ttl, int $holdUs, int $maxWaitMs, string $sha): callable
{
    switch ($variant) {
        case 'RedisLock wait':
        case 'RedisLock fair':
            $lock = new RedisLock($key, ['servers' => "redis://127.0.0.1:$port", 'ttl' => $ttl,
                'fair' => $variant === 'RedisLock fair']);
            return function (callable $held) use ($lock, $holdUs, $maxWaitMs): bool {
                if (!$lock->acquire($maxWaitMs)) {
                    return false;
                }
                $held();
                usleep($holdUs);
                return $lock->release();
            };
        case 'phpredis poll':
            $r = new Redis();
            $r->connect('127.0.0.1', $port);
            $keys = bench_release_keys(file_get_contents(__DIR__ . '/../lua/release.lua'), $key);
            return function (callable $held) use ($r, $keys, $ttl, $holdUs, $maxWaitMs, $sha): bool {
                $token = bin2hex(random_bytes(16));
                $deadline = hrtime(true) + $maxWaitMs * 1000000;
                while ($r->set($keys[0], $token, ['nx', 'px' => $ttl]) !== true) {
                    if (hrtime(true) >= $deadline) {
                        return false;
                    }
                    usleep(1000);
                }
                $held();
                usleep($holdUs);
                return $r->evalSha($sha, [...$keys, $token], count($keys)) === 1;
            };
    }
    throw new LogicException("unknown variant $variant");
}

/* Runs W workers of one variant for $runMs. Returns [the workers' results,
 * INFO commandstats as command => calls, elapsed ns]. */
function run_round(string $variant, int $w, int $port, int $runMs, int $ttl, int $holdUs, int $maxWaitMs,
                     string $sha): array
{
    $admin = admin($port);
    $key = 'bench:contention:' . str_replace(' ', '-', $variant) . ":$w";
    $admin->del($admin->keys($key . '*') ?: [$key]);
    $pipes = [];
    $pids = [];
    $start = hrtime(true) + 300000000 + $w * 5000000; /* all forked and connected by then */
    $end = $start + $runMs * 1000000;
    $admin->rawCommand('CONFIG', 'RESETSTAT');
    $cpu0 = server_cpu($admin);
    /* The workers must not inherit a connection. */
    $admin->close();
    for ($i = 0; $i < $w; $i++) {
        [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = pcntl_fork();
        if ($pid === -1) {
            throw new RuntimeException('fork failed');
        }
        if ($pid === 0) {
            fclose($mine);
            $code = 0;
            try {
                $cycle = make_cycle($variant, $key, $port, $ttl, $holdUs, $maxWaitMs, $sha);
                $result = worker_loop($start, $end, $cycle);
            } catch (Throwable $e) {
                $result = ['error' => get_class($e) . ': ' . $e->getMessage()];
                $code = 1;
            }
            fwrite($theirs, serialize($result));
            fclose($theirs);
            exit($code);
        }
        fclose($theirs);
        $pipes[$i] = $mine;
        $pids[$i] = $pid;
    }
    $results = [];
    foreach ($pipes as $i => $pipe) {
        $results[$i] = unserialize(stream_get_contents($pipe));
        fclose($pipe);
        pcntl_waitpid($pids[$i], $status);
    }
    $done = array_map(fn($r) => is_array($r) && isset($r[5]) ? $r[5] : $end, $results);
    $elapsed = max(max($done), $end) - $start;
    $admin = admin($port);
    $calls = [];
    foreach (explode("\r\n", $admin->rawCommand('INFO', 'commandstats')) as $line) {
        if (preg_match('/^cmdstat_([^:]+):calls=(\d+)/', $line, $m)) {
            $calls[$m[1]] = (int) $m[2];
        }
    }
    $calls['_cpu'] = server_cpu($admin) - $cpu0;
    $admin->del($admin->keys($key . '*') ?: [$key]);
    return [$results, $calls, $elapsed];
}

/* The lock server's CPU time so far, user + system, in seconds (INFO cpu). */
function server_cpu(Redis $admin): float
{
    $info = $admin->rawCommand('INFO', 'cpu');
    preg_match('/used_cpu_sys:([0-9.]+)/', $info, $sys);
    preg_match('/used_cpu_user:([0-9.]+)/', $info, $user);
    return (float) ($sys[1] ?? 0) + (float) ($user[1] ?? 0);
}

/* Critical sections per second in one round's results. */
function round_rate(array $results, int $elapsedNs): float
{
    $sections = 0;
    foreach ($results as $r) {
        $sections += is_array($r) && isset($r[0]) ? $r[0] : 0;
    }
    return $sections / ($elapsedNs / 1e9);
}

function admin(int $port): Redis
{
    $r = new Redis();
    $r->connect('127.0.0.1', $port);
    return $r;
}

function percentile(array $sorted, float $q): float
{
    if (!$sorted) {
        return NAN;
    }
    return $sorted[min(count($sorted) - 1, (int) ceil($q * count($sorted)) - 1)];
}

function summarize(string $variant, int $w, array $results, array $calls, int $elapsedNs): array
{
    $sections = $fail = $hold = $sentByClients = 0;
    $waits = [];
    $errors = [];
    foreach ($results as $r) {
        if (!is_array($r) || isset($r['error'])) {
            $errors[] = is_array($r) ? $r['error'] : 'no result';
            continue;
        }
        [$n, $f, $wt, $h, $delta] = $r;
        $sentByClients += $delta['commands'] ?? 0;
        $sections += $n;
        $fail += $f;
        $hold += $h;
        array_push($waits, ...$wt);
    }
    sort($waits);
    $all = $trips = 0;
    $cpu = $calls['_cpu'] ?? 0.0;
    unset($calls['_cpu']);
    foreach ($calls as $cmd => $n) {
        if (preg_match('/^(info|config\|.*)$/', $cmd)) {
            continue;
        }
        $all += $n;
        /* The phpredis loop sends SET and EVALSHA; the SET and GET its
         * release script runs are counted under their own names. */
        if ($variant === 'phpredis poll' && in_array($cmd, ['set', 'evalsha', 'eval'], true)) {
            $trips += $n;
        }
    }
    if ($variant !== 'phpredis poll') {
        $trips = $sentByClients;
    }
    return [
        'variant' => $variant,
        'w' => $w,
        'sections' => $sections,
        'per_s' => $sections / ($elapsedNs / 1e9),
        'p50' => percentile($waits, 0.50) / 1e6,
        'p99' => percentile($waits, 0.99) / 1e6,
        'max' => $waits ? end($waits) / 1e6 : NAN,
        'hold' => $sections ? $hold / $sections / 1e6 : NAN,
        'all' => $sections ? $all / $sections : NAN,
        'trips' => $sections ? $trips / $sections : NAN,
        'cpu' => $sections ? $cpu / $sections * 1e6 : NAN,
        'fail' => $fail,
        'errors' => $errors,
    ];
}

printf("contention on one lock (127.0.0.1:%d): W workers for %d ms per variant in %d rounds, critical sections hold %d us\n\n",
    $port, $runMs, $rounds, $holdUs);
$variants = ['RedisLock wait', 'RedisLock fair', 'phpredis poll'];
$rows = [];
$head = sprintf('%4s  %-15s %10s %9s %9s %9s %8s %8s %9s %10s %6s', 'W', 'variant', 'sections/s', 'p50 ms',
    'p99 ms', 'max ms', 'hold ms', 'cmds/cs', 'sent/cs', 'cpu us/cs', 'failed');
echo $head, "\n", str_repeat('-', strlen($head)), "\n";
$roundRates = [];
foreach ($workerCounts as $w) {
    $acc = array_fill_keys($variants, ['results' => [], 'calls' => [], 'elapsed' => 0]);
    for ($round = 0; $round < $rounds; $round++) {
        foreach ($variants as $variant) {
            [$results, $calls, $elapsed] = run_round($variant, $w, $port, max(100, intdiv($runMs, $rounds)), $ttl,
                $holdUs, $maxWaitMs, $releaseSha);
            array_push($acc[$variant]['results'], ...$results);
            foreach ($calls as $cmd => $n) {
                $acc[$variant]['calls'][$cmd] = ($acc[$variant]['calls'][$cmd] ?? 0) + $n;
            }
            $acc[$variant]['elapsed'] += $elapsed;
            $roundRates[$w][$variant][] = round_rate($results, $elapsed);
        }
    }
    foreach ($variants as $variant) {
        $r = summarize($variant, $w, $acc[$variant]['results'], $acc[$variant]['calls'], $acc[$variant]['elapsed']);
        $rows[$w][$variant] = $r;
        printf("%4d  %-15s %10.0f %9.2f %9.2f %9.2f %8.2f %8.1f %9.2f %10.1f %6d\n", $w, $variant, $r['per_s'],
            $r['p50'], $r['p99'], $r['max'], $r['hold'], $r['all'], $r['trips'], $r['cpu'], $r['fail']);
        foreach ($r['errors'] as $e) {
            echo "      worker error: $e\n";
        }
    }
}

echo "\ntargets (cmds/cs: every command the server ran, scripts' own included; sent/cs: commands the clients sent):\n";
foreach ($rows as $w => $byVariant) {
    $base = $byVariant['phpredis poll']['per_s'];
    foreach (['RedisLock wait', 'RedisLock fair'] as $variant) {
        $r = $byVariant[$variant];
        $verdicts = [
            sprintf('throughput %.3fx baseline (>= 1: %s; rounds %s)', $r['per_s'] / $base,
                $r['per_s'] >= $base ? 'met' : 'NOT met', implode(' ', array_map(
                    fn($mine, $theirs) => sprintf('%.2f', $mine / $theirs),
                    $roundRates[$w][$variant], $roundRates[$w]['phpredis poll']))),
            sprintf('sent/cs %.2f (<= 6: %s)', $r['trips'], $r['trips'] <= 6 ? 'met' : 'NOT met'),
            sprintf('cmds/cs %.1f (<= 6: %s)', $r['all'], $r['all'] <= 6 ? 'met' : 'NOT met'),
            sprintf('server cpu/cs %.1f us, %.2fx the polling loop\'s (<= 1: %s)', $r['cpu'],
                $r['cpu'] / $byVariant['phpredis poll']['cpu'],
                $r['cpu'] <= $byVariant['phpredis poll']['cpu'] ? 'met' : 'NOT met'),
        ];
        if ($variant === 'RedisLock fair') {
            $bound = 3 * $w * $r['hold'];
            $verdicts[] = sprintf('max wait %.1f ms (<= 3 x W x hold = %.1f ms: %s)', $r['max'], $bound,
                $r['max'] <= $bound ? 'met' : 'NOT met');
        }
        printf("  W=%-3d %-15s %s\n", $w, $variant, implode('; ', $verdicts));
    }
}
