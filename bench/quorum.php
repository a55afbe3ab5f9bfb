<?php
/*
 * bench/quorum.php: uncontended acquire + release cycles per second of a
 * quorum lock (Redlock) over N = 1, 3 and 5 local redis-servers. RedisLock
 * against the sequential way with phpredis: SET key token NX PX on each
 * server one after another, check the quorum and the validity left, then
 * EVALSHA the release script (lua/release.lua, the extension's own) on each
 * server one after another.
 *
 * The ceiling: bench/fanout.c, a C client that sends the same two commands
 * to every server at once and waits for their answers, with no lock logic
 * and no PHP (bench/run.sh builds it and names it in REDISLOCK_BENCH_FANOUT;
 * without it those variants are left out). Its rate over the sequential
 * loop's is as much as any client could gain by fanning out on this
 * machine; RedisLock's rate over its rate is how close the extension gets.
 *
 * Run by bench/run.sh, which starts the servers and loads both extensions.
 */
require __DIR__ . '/bench.inc';

$ports = bench_ports(5);
$rounds = bench_rounds();
$ms = bench_round_ms();
$ttl = 10000;
$script = file_get_contents(__DIR__ . '/../lua/release.lua');

$locks = [];
$clients = [];
foreach ([1, 3, 5] as $n) {
    $dsns = array_map(fn($p) => "redis://127.0.0.1:$p", array_slice($ports, 0, $n));
    $locks[$n] = new RedisLock("n$n", ['servers' => implode(',', $dsns), 'prefix' => 'bench:quorum:', 'ttl' => $ttl]);
}
foreach ($ports as $p) {
    $r = new Redis();
    $r->pconnect('127.0.0.1', $p);
    $sha = $r->script('load', $script);
    $clients[] = $r;
}

/* Redlock done sequentially with phpredis over the first $n servers. */
function sequential_cycle(array $servers, string $sha, array $keys, int $ttl): bool
{
    $token = bin2hex(random_bytes(16));
    $start = hrtime(true);
    $ok = 0;
    foreach ($servers as $r) {
        if ($r->set($keys[0], $token, ['nx', 'px' => $ttl]) === true) {
            $ok++;
        }
    }
    $elapsed = intdiv(hrtime(true) - $start, 1000000);
    $acquired = $ok >= intdiv(count($servers), 2) + 1 && $ttl - $elapsed - (intdiv($ttl, 100) + 2) > 0;
    $released = 0;
    foreach ($servers as $r) {
        if ($r->evalSha($sha, [...$keys, $token], count($keys)) === 1) {
            $released++;
        }
    }
    return $acquired && $released >= intdiv(count($servers), 2) + 1;
}

/* The C client of bench/fanout.c over the first $n servers, as a
 * coprocess: each call has it run a batch of cycles and returns how many
 * succeeded (false when any failed). */
function fanout_variant(string $binary, string $mode, array $ports, string $sha, string $key, int $ttl): array
{
    $proc = proc_open([$binary, $mode, $sha, $key, (string) $ttl, ...array_map('strval', $ports)],
        [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    if (!is_resource($proc)) {
        throw new RuntimeException("cannot start $binary");
    }
    $batch = 20;
    $cycle = function () use ($pipes, $batch): int|false {
        fwrite($pipes[0], "$batch\n");
        $done = (int) fgets($pipes[1]);
        return $done === $batch ? $batch : false;
    };
    return [$cycle, proc_get_status($proc)['pid'], $proc];
}

$variants = [];
$fanoutPids = [];
$fanout = (string) getenv('REDISLOCK_BENCH_FANOUT');
$fanoutProcs = [];
foreach ([1, 3, 5] as $n) {
    $lock = $locks[$n];
    $variants["RedisLock N=$n"] = fn() => $lock->acquire() && $lock->release();
}
foreach ([1, 3, 5] as $n) {
    $servers = array_slice($clients, 0, $n);
    $keys = bench_release_keys($script, "bench:quorum:phpredis:n$n");
    $variants["phpredis sequential N=$n"] = fn() => sequential_cycle($servers, $sha, $keys, $ttl);
}
if ($fanout !== '' && is_executable($fanout)) {
    foreach ([3, 5] as $n) {
        foreach (['parallel' => 'C fan-out', 'sequential' => 'C sequential'] as $mode => $label) {
            [$cycle, $pid, $fanoutProcs[]] = fanout_variant($fanout, $mode, array_slice($ports, 0, $n), $sha,
                "bench:quorum:$mode:n$n", $ttl);
            $variants["$label N=$n"] = $cycle;
            $fanoutPids["$label N=$n"] = $pid;
        }
    }
} else {
    echo "bench/fanout.c not built (REDISLOCK_BENCH_FANOUT): the C ceiling is left out\n\n";
}

printf("quorum lock over N local servers, uncontended acquire + release cycles/s, %d rounds of %d ms each, interleaved in %d ms turns\n\n",
    $rounds, $ms, bench_slice_ms());
$results = bench_run($variants, $rounds, $ms);
bench_table($results);

$med = array_map('bench_median', $results);
echo "\nratios of medians:\n";
bench_ratio('RedisLock N=3 / RedisLock N=1', $med['RedisLock N=3'] / $med['RedisLock N=1'], 0.7);
bench_ratio('RedisLock N=5 / RedisLock N=1', $med['RedisLock N=5'] / $med['RedisLock N=1'], 0.6);
bench_ratio('RedisLock N=3 / phpredis sequential N=3', $med['RedisLock N=3'] / $med['phpredis sequential N=3'], 2.5);
bench_ratio('RedisLock N=5 / phpredis sequential N=5', $med['RedisLock N=5'] / $med['phpredis sequential N=5'], 4.0);
bench_ratio('RedisLock N=1 / phpredis N=1', $med['RedisLock N=1'] / $med['phpredis sequential N=1']);
bench_ratio('phpredis sequential N=3 / N=1', $med['phpredis sequential N=3'] / $med['phpredis sequential N=1']);
bench_ratio('phpredis sequential N=5 / N=1', $med['phpredis sequential N=5'] / $med['phpredis sequential N=1']);
if ($fanoutPids) {
    /* Per-round ratios (the variants of a round ran in the same turns):
     * their median and range. */
    $perRound = function (string $a, string $b) use ($results): string {
        $ratios = array_map(fn($x, $y) => $x / $y, $results[$a], $results[$b]);
        return sprintf('%.2f [%.2f-%.2f]', bench_median($ratios), min($ratios), max($ratios));
    };
    echo "\nthe ceiling: a C client with no lock logic sending the same commands (bench/fanout.c);\n",
        "medians of the per-round ratios, their range in brackets:\n";
    foreach ([3, 5] as $n) {
        foreach ([["C fan-out N=$n", "phpredis sequential N=$n"], ["RedisLock N=$n", "C fan-out N=$n"],
                  ["RedisLock N=$n", "phpredis sequential N=$n"], ["C fan-out N=$n", "C sequential N=$n"]] as [$a, $b]) {
            printf("  %-44s %s\n", "$a / $b", $perRound($a, $b));
        }
    }
    echo "  (a target above the first line of its N is beyond any client on this machine)\n";
}
/*
 * Where the time goes: each variant alone for a second, with the CPU time
 * of this process (getrusage) and of the N servers (INFO cpu) per cycle.
 * The parallel fan-out keeps the N servers and the client busy at once; on
 * a machine with C cores no cycle can take less than their CPU time
 * divided by C, which bounds the speed-up over the sequential loop.
 */
function cpu_self(): float
{
    $u = getrusage();
    return $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6 + $u['ru_stime.tv_sec'] + $u['ru_stime.tv_usec'] / 1e6;
}

/* A coprocess's CPU time so far, user + system, in seconds (/proc, in clock
 * ticks of 10 ms: enough over the rounds below). */
function cpu_pid(int $pid): float
{
    $stat = (string) @file_get_contents("/proc/$pid/stat");
    $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
    return ((int) ($fields[11] ?? 0) + (int) ($fields[12] ?? 0)) / 100;
}

function cpu_servers(array $servers): float
{
    $sum = 0.0;
    foreach ($servers as $r) {
        $info = $r->rawCommand('INFO', 'cpu');
        preg_match('/used_cpu_sys:([0-9.]+)/', $info, $sys);
        preg_match('/used_cpu_user:([0-9.]+)/', $info, $user);
        $sum += (float) ($sys[1] ?? 0) + (float) ($user[1] ?? 0);
    }
    return $sum;
}

$cores = (int) trim((string) shell_exec('nproc')) ?: 2;
$cpuRounds = 5;
$cpuMs = min($ms, 500);
printf("\nCPU per cycle (%d interleaved rounds of %d ms per variant, summed; %d cores):\n", $cpuRounds, $cpuMs, $cores);
printf("  %-28s %9s %12s %12s %14s %16s\n", 'variant', 'us/cycle', 'client us', 'servers us', 'busy cores', 'floor us/cycle');
$names = ['RedisLock N=3', 'phpredis sequential N=3', 'RedisLock N=5', 'phpredis sequential N=5'];
foreach (array_keys($fanoutPids) as $name) {
    if (str_starts_with($name, 'C fan-out')) {
        $names[] = $name;
    }
}
$acc = array_fill_keys($names, ['cycles' => 0, 'ns' => 0, 'client' => 0.0, 'server' => 0.0]);
for ($r = 0; $r < $cpuRounds; $r++) {
    foreach ($names as $name) {
        $servers = array_slice($clients, 0, (int) substr($name, -1));
        $self = isset($fanoutPids[$name]) ? fn() => cpu_pid($fanoutPids[$name]) : 'cpu_self';
        $c0 = $self();
        $s0 = cpu_servers($servers);
        [$cycles, $ns] = bench_measure($name, $variants[$name], $cpuMs);
        $acc[$name]['client'] += $self() - $c0;
        $acc[$name]['server'] += cpu_servers($servers) - $s0;
        $acc[$name]['cycles'] += $cycles;
        $acc[$name]['ns'] += $ns;
    }
}
$floor = [];
foreach ($names as $name) {
    $a = $acc[$name];
    $client = $a['client'] / $a['cycles'] * 1e6;
    $server = $a['server'] / $a['cycles'] * 1e6;
    $wall = $a['ns'] / 1e3 / $a['cycles'];
    $floor[$name] = ($client + $server) / $cores;
    printf("  %-28s %9.1f %12.1f %12.1f %14.2f %16.1f\n", $name, $wall, $client, $server, ($client + $server) / $wall,
        $floor[$name]);
    if (str_starts_with($name, 'phpredis')) {
        $n = substr($name, -1);
        printf("  N=%s: the sequential loop's cycle over the fan-out's CPU floor: at most %.2fx faster on %d cores\n",
            $n, $wall / $floor["RedisLock N=$n"], $cores);
    }
}

$stats = RedisLock::stats();
echo "\nRedisLock::stats(): ", implode(', ', array_map(fn($k, $v) => "$k $v", array_keys($stats), $stats)), "\n";
