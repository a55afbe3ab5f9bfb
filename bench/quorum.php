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
bench_ratio('RedisLock N=5 / phpredis sequential N=5', $med['RedisLock N=5'] / $med['phpredis sequential N=5'], 2.5);
bench_ratio('RedisLock N=1 / phpredis N=1', $med['RedisLock N=1'] / $med['phpredis sequential N=1']);
bench_ratio('phpredis sequential N=3 / N=1', $med['phpredis sequential N=3'] / $med['phpredis sequential N=1']);
bench_ratio('phpredis sequential N=5 / N=1', $med['phpredis sequential N=5'] / $med['phpredis sequential N=1']);

$stats = RedisLock::stats();
echo "\nRedisLock::stats(): ", implode(', ', array_map(fn($k, $v) => "$k $v", array_keys($stats), $stats)), "\n";
