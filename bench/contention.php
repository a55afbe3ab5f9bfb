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
 * and the lock server's CPU time per critical section (INFO cpu, user +
 * system), split by INFO commandstats into the time spent running scripts
 * (EVALSHA and EVAL, the commands they call included) and the rest.
 *
 * Variants:
 *   RedisLock wait   acquire($wait): sleeps in BLPOP until a release wakes it
 *   RedisLock fair   the same with 'fair' => true (arrival order)
 *   phpredis poll    SET key token NX PX, usleep(1000) between tries, release
 *                    by EVALSHA of lua/release.lua (the extension's own)
 *   RedisLock N=3    acquire($wait) on a quorum of N servers (Redlock): waiters
 *                    block in BLPOP on every server and try again when a
 *                    majority woke them. Its commands and server CPU are summed
 *                    over the N servers. Target: max wait <= 3 x W x cycle
 *                    (cycle: the mean time per critical section, 1/throughput)
 *   phpredis ring    no lock at all: a token passed from worker to worker in a
 *                    ring, each blocked in BLPOP on its own list until the one
 *                    before it RPUSHes there. The least any hand-over costs on
 *                    this machine (one command each way, one process woken):
 *                    the ceiling for a lock that passes the lock to a waiter,
 *                    which the polling loop is not (its releaser takes the lock
 *                    straight back)
 *   phpredis hand-over the same ring, with a lock on it: the woken worker takes
 *                    the lock (SET NX PX, sent behind its BLPOP in the same
 *                    write), and releases it by a bare compare-and-delete
 *                    script with the push to the next worker behind it. The
 *                    least a lock that hands over costs the server: a take, a
 *                    release and a hand-over in two writes, as RedisLock's,
 *                    with no waiter bookkeeping at all (it only works because
 *                    the ring knows who is next and nobody ever fails)
 *
 * Settings (environment):
 *   REDISLOCK_BENCH_PORTS               the server (bench/run.sh sets it; the first port is used)
 *   REDISLOCK_BENCH_CONTENTION_MS       run time per variant and W (default 3000)
 *   REDISLOCK_BENCH_CONTENTION_ROUNDS   rounds the run time is split into (default 3); in each
 *                                       round the variants take turns, so that load from
 *                                       elsewhere on the machine falls on all of them alike
 *   REDISLOCK_BENCH_CONTENTION_WORKERS  comma-separated W values (default 2,8,32)
 *   REDISLOCK_BENCH_CONTENTION_QUORUM   comma-separated server counts N of the quorum variants
 *                                       (default 3,5,7; empty: none)
 *   REDISLOCK_BENCH_CONTENTION_HOLD_US  comma-separated hold times of a critical section, in
 *                                       microseconds (default 0,1000)
 *
 * Targets: throughput >= the phpredis loop's, at most 6 commands per
 * critical section (checked against both counts above), the lock server's
 * CPU per section <= the phpredis loop's, and in fair mode a max wait <=
 * 3 x W x mean hold. Throughput and CPU are also given against the bare
 * hand-over lock, which no lock that hands over can beat by much.
 * Needs pcntl (built into the CLI) and phpredis for the baseline.
 */
require __DIR__ . '/bench.inc';

$quorumEnv = getenv('REDISLOCK_BENCH_CONTENTION_QUORUM');
$quorums = array_map('intval', array_filter(explode(',', $quorumEnv === false ? '3,5,7' : $quorumEnv)));
$ports = bench_ports(max([1, ...$quorums]));
$port = $ports[0];
$runMs = max(200, (int) (getenv('REDISLOCK_BENCH_CONTENTION_MS') ?: 3000));
$rounds = max(1, (int) (getenv('REDISLOCK_BENCH_CONTENTION_ROUNDS') ?: 3));
$holdEnv = getenv('REDISLOCK_BENCH_CONTENTION_HOLD_US');
$holds = array_map(fn($v) => max(0, (int) $v), explode(',', $holdEnv === false || $holdEnv === '' ? '0,1000' : $holdEnv));
$workerCounts = array_map('intval', explode(',', getenv('REDISLOCK_BENCH_CONTENTION_WORKERS') ?: '2,8,32'));
$ttl = 10000;
$maxWaitMs = 60000; /* far beyond any wait here: a false acquire is a failure */

/* The hand-over lock's release: compare-and-delete, nothing else. */
const BARE_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

foreach ($ports as $p) {
    $admin = admin($p);
    $releaseSha = $admin->script('load', file_get_contents(__DIR__ . '/../lua/release.lua'));
    $admin->script('load', BARE_RELEASE);
    $admin->close();
}

/* The variants that pass a token around a ring of workers. */
function is_ring(string $variant): bool
{
    return $variant === 'phpredis ring' || $variant === 'phpredis hand-over';
}

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
/* The servers a variant uses: N for a quorum variant, else the first. */
function variant_ports(string $variant, array $ports): array
{
    return preg_match('/ N=(\d+)$/', $variant, $m) ? array_slice($ports, 0, (int) $m[1]) : [$ports[0]];
}

function make_cycle(string $variant, string $key, array $ports, int $ttl, int $holdUs, int $maxWaitMs, string $sha,
                    int $i, int $w): callable
{
    $port = $ports[0];
    if (str_starts_with($variant, 'RedisLock N=')) {
        $variant = 'RedisLock wait';
    }
    switch ($variant) {
        case 'phpredis ring':
            $r = new Redis();
            $r->connect('127.0.0.1', $port);
            $mine = "$key:ring:$i";
            $next = "$key:ring:" . (($i + 1) % $w);
            return function (callable $held) use ($r, $mine, $next, $holdUs): bool {
                /* Short blocks, so that the workers notice the end. */
                if (!$r->rawCommand('BLPOP', $mine, '0.1')) {
                    return false;
                }
                $held();
                if ($holdUs > 0) {
                    usleep($holdUs);
                }
                $r->rPush($next, '1');
                return true;
            };
        case 'phpredis hand-over':
            $r = new Redis();
            $r->connect('127.0.0.1', $port);
            $mine = "$key:ring:$i";
            $next = "$key:ring:" . (($i + 1) % $w);
            $bare = sha1(BARE_RELEASE);
            /* Each step is one write, as RedisLock's: BLPOP with the SET
             * behind it, and the release with the push behind it. */
            return function (callable $held) use ($r, $key, $mine, $next, $ttl, $holdUs, $bare): bool {
                $token = bin2hex(random_bytes(16));
                /* One-second blocks (phpredis takes whole seconds), so that
                 * the workers notice the end. */
                [$woken, $took] = $r->pipeline()->blPop([$mine], 1)->set($key, $token, ['nx', 'px' => $ttl])->exec();
                if (!$woken) {
                    return false;
                }
                if ($took !== true) {
                    throw new RuntimeException('the hand-over ring found its lock taken');
                }
                $held();
                if ($holdUs > 0) {
                    usleep($holdUs);
                }
                [$released] = $r->pipeline()->evalSha($bare, [$key, $token], 1)->rPush($next, '1')->exec();
                return $released === 1;
            };
        case 'RedisLock wait':
        case 'RedisLock fair':
            $lock = new RedisLock($key, ['servers' => implode(',', array_map(fn($p) => "redis://127.0.0.1:$p", $ports)),
                'ttl' => $ttl,
                'fair' => $variant === 'RedisLock fair']);
            return function (callable $held) use ($lock, $holdUs, $maxWaitMs): bool {
                if (!$lock->acquire($maxWaitMs)) {
                    return false;
                }
                $held();
                if ($holdUs > 0) {
                    usleep($holdUs);
                }
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
                if ($holdUs > 0) {
                    usleep($holdUs);
                }
                return $r->evalSha($sha, [...$keys, $token], count($keys)) === 1;
            };
    }
    throw new LogicException("unknown variant $variant");
}

/* Runs W workers of one variant for $runMs. Returns [the workers' results,
 * INFO commandstats as command => calls, elapsed ns]. */
function run_round(string $variant, int $w, array $allPorts, int $runMs, int $ttl, int $holdUs, int $maxWaitMs,
                     string $sha): array
{
    $ports = variant_ports($variant, $allPorts);
    $key = 'bench:contention:' . str_replace(' ', '-', $variant) . ":$w";
    $cpu0 = 0.0;
    foreach ($ports as $p) {
        $admin = admin($p);
        $admin->del($admin->keys($key . '*') ?: [$key]);
        if (is_ring($variant)) {
            $admin->rPush("$key:ring:0", '1');
        }
        $admin->rawCommand('CONFIG', 'RESETSTAT');
        $cpu0 += server_cpu($admin);
        /* The workers must not inherit a connection. */
        $admin->close();
    }
    $pipes = [];
    $pids = [];
    $start = hrtime(true) + 300000000 + $w * 5000000; /* all forked and connected by then */
    $end = $start + $runMs * 1000000;
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
                $cycle = make_cycle($variant, $key, $ports, $ttl, $holdUs, $maxWaitMs, $sha, $i, $w);
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
    /* The ring's workers end by a BLPOP timing out, after the end. */
    $elapsed = is_ring($variant) ? $end - $start : max(max($done), $end) - $start;
    $calls = ['_cpu' => -$cpu0];
    foreach ($ports as $p) {
        $admin = admin($p);
        foreach (explode("\r\n", $admin->rawCommand('INFO', 'commandstats')) as $line) {
            if (preg_match('/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/', $line, $m)) {
                $calls[$m[1]] = ($calls[$m[1]] ?? 0) + (int) $m[2];
                /* The time the server spent running scripts, the commands
                 * they call included. */
                if ($m[1] === 'evalsha' || $m[1] === 'eval') {
                    $calls['_script_us'] = ($calls['_script_us'] ?? 0) + (int) $m[3];
                }
            }
        }
        $calls['_cpu'] += server_cpu($admin);
        $admin->del($admin->keys($key . '*') ?: [$key]);
        $admin->close();
    }
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

/* Critical sections in one round's results. */
function round_sections(array $results): int
{
    $sections = 0;
    foreach ($results as $r) {
        $sections += is_array($r) && isset($r[0]) ? $r[0] : 0;
    }
    return $sections;
}

/* Critical sections per second in one round's results. */
function round_rate(array $results, int $elapsedNs): float
{
    return round_sections($results) / ($elapsedNs / 1e9);
}

/* The lock server's CPU per critical section in one round, in us. */
function round_cpu(array $results, float $cpuSeconds): float
{
    $sections = round_sections($results);
    return $sections ? $cpuSeconds / $sections * 1e6 : NAN;
}

/* Median and range of the per-round ratios of variant $a's figures to $b's. */
function round_ratio(array $perRound, string $a, string $b): array
{
    return median_range(array_map(fn($x, $y) => $x / $y, $perRound[$a], $perRound[$b]));
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
    $scriptUs = $calls['_script_us'] ?? 0;
    unset($calls['_cpu'], $calls['_script_us']);
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
        /* The rings send BLPOP and RPUSH, the hand-over lock its SET and
         * EVALSHA too (its script runs GET and DEL). */
        if (is_ring($variant) && in_array($cmd, ['blpop', 'rpush', 'set', 'evalsha'], true)) {
            $trips += $n;
        }
    }
    if ($variant !== 'phpredis poll' && !is_ring($variant)) {
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
        'script' => $sections ? $scriptUs / $sections : NAN,
        'fail' => $fail,
        'errors' => $errors,
    ];
}

/* Median of a list, and its range as "min-max". */
function median_range(array $v): array
{
    sort($v);
    $n = count($v);
    $median = $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
    return [$median, sprintf('%.2f-%.2f', $v[0], $v[$n - 1])];
}

$variants = ['RedisLock wait', 'RedisLock fair', ...array_map(fn($n) => "RedisLock N=$n", $quorums), 'phpredis poll',
    'phpredis ring', 'phpredis hand-over'];
$head = sprintf('%4s  %-15s %10s %9s %9s %9s %8s %8s %9s %10s %6s', 'W', 'variant', 'sections/s', 'p50 ms',
    'p99 ms', 'max ms', 'hold ms', 'cmds/cs', 'sent/cs', 'cpu us/cs', 'failed');
$verdictLines = [];
foreach ($holds as $holdUs) {
    printf("\ncontention on one lock (127.0.0.1:%d): W workers for %d ms per variant in %d rounds, critical sections hold %d us\n\n",
        $port, $runMs, $rounds, $holdUs);
    echo $head, "\n", str_repeat('-', strlen($head)), "\n";
    $rows = [];
    $roundRates = [];
    $roundCpu = [];
    foreach ($workerCounts as $w) {
        $acc = array_fill_keys($variants, ['results' => [], 'calls' => [], 'elapsed' => 0]);
        for ($round = 0; $round < $rounds; $round++) {
            foreach ($variants as $variant) {
                [$results, $calls, $elapsed] = run_round($variant, $w, $ports, max(100, intdiv($runMs, $rounds)), $ttl,
                    $holdUs, $maxWaitMs, $releaseSha);
                array_push($acc[$variant]['results'], ...$results);
                foreach ($calls as $cmd => $n) {
                    $acc[$variant]['calls'][$cmd] = ($acc[$variant]['calls'][$cmd] ?? 0) + $n;
                }
                $acc[$variant]['elapsed'] += $elapsed;
                $roundRates[$w][$variant][] = round_rate($results, $elapsed);
                $roundCpu[$w][$variant][] = round_cpu($results, $calls['_cpu']);
            }
        }
        foreach ($variants as $variant) {
            $r = summarize($variant, $w, $acc[$variant]['results'], $acc[$variant]['calls'], $acc[$variant]['elapsed']);
            $rows[$w][$variant] = $r;
            /* The ring's workers end on a BLPOP that times out: not failures. */
            printf("%4d  %-15s %10.0f %9.2f %9.2f %9.2f %8.2f %8.1f %9.2f %10.1f %6s\n", $w, $variant, $r['per_s'],
                $r['p50'], $r['p99'], $r['max'], $r['hold'], $r['all'], $r['trips'], $r['cpu'],
                is_ring($variant) ? '-' : (string) $r['fail']);
            foreach ($r['errors'] as $e) {
                echo "      worker error: $e\n";
            }
        }
    }

    $verdictLines[] = sprintf("hold %d us (ratios: median of the per-round ratios, their range in brackets):", $holdUs);
    foreach ($rows as $w => $byVariant) {
        $poll = $byVariant['phpredis poll'];
        foreach (['RedisLock wait', 'RedisLock fair'] as $variant) {
            $r = $byVariant[$variant];
            [$vsPoll, $pollRange] = round_ratio($roundRates[$w], $variant, 'phpredis poll');
            [$vsRing, $ringRange] = round_ratio($roundRates[$w], $variant, 'phpredis ring');
            [$vsHandOver, $handOverRange] = round_ratio($roundRates[$w], $variant, 'phpredis hand-over');
            /* The server's CPU per section: median of the per-round
             * ratios, as for the throughput. */
            [$cpuVsPoll, $cpuPollRange] = round_ratio($roundCpu[$w], $variant, 'phpredis poll');
            [$cpuVsFloor, $cpuFloorRange] = round_ratio($roundCpu[$w], $variant, 'phpredis hand-over');
            $verdicts = [
                sprintf('throughput %.2fx polling [%s] (>= 1: %s), %.2fx the ring\'s [%s], %.2fx the hand-over lock\'s [%s]',
                    $vsPoll, $pollRange, $vsPoll >= 1 ? 'met' : 'NOT met', $vsRing, $ringRange, $vsHandOver,
                    $handOverRange),
                sprintf('sent/cs %.2f (<= 6: %s)', $r['trips'], $r['trips'] <= 6 ? 'met' : 'NOT met'),
                sprintf('server cpu/cs %.1f us, %.2fx polling\'s [%s] (<= 1: %s), %.2fx the hand-over lock\'s [%s]',
                    $r['cpu'], $cpuVsPoll, $cpuPollRange, $cpuVsPoll <= 1 ? 'met' : 'NOT met', $cpuVsFloor,
                    $cpuFloorRange),
                /* INFO commandstats: the part of that CPU spent in scripts,
                 * and the rest (reading, writing, plain commands). */
                sprintf('of which scripts %.1f us (polling %.1f), the rest %.1f us (polling %.1f)', $r['script'],
                    $poll['script'], $r['cpu'] - $r['script'], $poll['cpu'] - $poll['script']),
            ];
            if ($variant === 'RedisLock fair' && $holdUs > 0) {
                $bound = 3 * $w * $r['hold'];
                /* The ring's longest wait in the same rounds, for scale: a
                 * stall of the machine lengthens every variant's. */
                $verdicts[] = sprintf('max wait %.1f ms (<= 3 x W x hold = %.1f ms: %s; the ring\'s %.1f ms)', $r['max'],
                    $bound, $r['max'] <= $bound ? 'met' : 'NOT met', $byVariant['phpredis ring']['max']);
            }
            $verdictLines[] = sprintf("  W=%-3d %-15s %s", $w, $variant, implode('; ', $verdicts));
        }
        foreach ($quorums as $n) {
            $r = $byVariant["RedisLock N=$n"];
            $bound = 3 * $w * 1e3 / $r['per_s'];
            $verdictLines[] = sprintf("  W=%-3d %-15s %.0f sections/s; max wait %.1f ms (<= 3 x W x cycle = %.1f ms: %s); sent/cs %.2f, commands/cs %.1f over %d servers",
                $w, "RedisLock N=$n", $r['per_s'], $r['max'], $bound, $r['max'] <= $bound ? 'met' : 'NOT met', $r['trips'],
                $r['all'], $n);
        }
        $ring = $byVariant['phpredis ring'];
        $verdictLines[] = sprintf("  W=%-3d %-15s %.0f sections/s: polling is %.2fx the ring (its releaser takes the lock back, p50 wait %.2f ms, max %.1f ms)",
            $w, 'phpredis ring', $ring['per_s'], $poll['per_s'] / $ring['per_s'], $poll['p50'], $poll['max']);
        /* What a lock that hands over cannot go below, against polling,
         * whose releaser takes the lock back instead of handing it over. */
        $floor = $byVariant['phpredis hand-over'];
        [$floorRate, $floorRateRange] = round_ratio($roundRates[$w], 'phpredis hand-over', 'phpredis poll');
        [$floorCpu, $floorCpuRange] = round_ratio($roundCpu[$w], 'phpredis hand-over', 'phpredis poll');
        $verdictLines[] = sprintf("  W=%-3d %-15s %.0f sections/s, %.2fx polling's [%s]; server cpu/cs %.1f us, %.2fx polling's [%s] (scripts %.1f us, the rest %.1f us)",
            $w, 'phpredis hand-over', $floor['per_s'], $floorRate, $floorRateRange, $floor['cpu'], $floorCpu,
            $floorCpuRange, $floor['script'], $floor['cpu'] - $floor['script']);
        /* The same bound for the ring, which has no lock: a wait there is
         * W - 1 hand-overs and nothing else, so what exceeds its bound is
         * the scheduling of W processes and the servers on this machine. */
        $ringBound = 3 * $w * 1e3 / $ring['per_s'];
        $verdictLines[] = sprintf("  W=%-3d %-15s max wait %.1f ms against its own 3 x W x cycle = %.1f ms (%s)",
            $w, 'phpredis ring', $ring['max'], $ringBound,
            $ring['max'] <= $ringBound ? 'within' : 'beyond: a scheduling limit, not the lock\'s');
    }
}
echo "\ntargets (sent/cs: commands the clients sent; cpu: the lock server's user + system time):\n";
echo implode("\n", $verdictLines), "\n";
