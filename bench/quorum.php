<?php
/*
 * bench/quorum.php: uncontended acquire + release cycles per second of a
 * quorum lock (Redlock) over N = 1, 3 and 5 local redis-servers. RedisLock
 * against the sequential way with phpredis: SET key token NX PX on each
 * server one after another, check the quorum and the validity left, then
 * EVALSHA the release script (lua/release.lua, the extension's own) on each
 * server one after another.
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

$variants = [];
foreach ([1, 3, 5] as $n) {
    $lock = $locks[$n];
    $variants["RedisLock N=$n"] = fn() => $lock->acquire() && $lock->release();
}
foreach ([1, 3, 5] as $n) {
    $servers = array_slice($clients, 0, $n);
    $keys = bench_release_keys($script, "bench:quorum:phpredis:n$n");
    $variants["phpredis sequential N=$n"] = fn() => sequential_cycle($servers, $sha, $keys, $ttl);
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
$acc = array_fill_keys($names, ['cycles' => 0, 'ns' => 0, 'client' => 0.0, 'server' => 0.0]);
for ($r = 0; $r < $cpuRounds; $r++) {
    foreach ($names as $name) {
        $servers = array_slice($clients, 0, (int) substr($name, -1));
        $c0 = cpu_self();
        $s0 = cpu_servers($servers);
        [$cycles, $ns] = bench_measure($name, $variants[$name], $cpuMs);
        $acc[$name]['client'] += cpu_self() - $c0;
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
