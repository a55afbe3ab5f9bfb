<?php
/*
 * bench/single.php: uncontended acquire + release cycles per second against
 * one local redis-server, RedisLock against the same cycle done by hand with
 * phpredis over a persistent connection:
 *
 *   SET key token NX PX 10000        (token: 16 random bytes, hex)
 *   EVALSHA <lua/release.lua> <its keys> token
 *
 * Run by bench/run.sh, which starts the server and loads both extensions.
 */
require __DIR__ . '/bench.inc';

[$port] = bench_ports(1);
$rounds = bench_rounds();
$ms = bench_round_ms();
$ttl = 10000;
$opts = ['servers' => "redis://127.0.0.1:$port", 'prefix' => 'bench:single:', 'ttl' => $ttl];

$reused = new RedisLock('reused', $opts);

$r = new Redis();
$r->pconnect('127.0.0.1', $port);
$script = file_get_contents(__DIR__ . '/../lua/release.lua');
$sha = $r->script('load', $script);
$keys = bench_release_keys($script, 'bench:single:phpredis');

$variants = [
    'RedisLock, one object reused' => function () use ($reused) {
        return $reused->acquire() && $reused->release();
    },
    'RedisLock, new object per cycle' => function () use ($opts) {
        $lock = new RedisLock('new', $opts);
        return $lock->acquire() && $lock->release();
    },
    'phpredis SET NX PX + EVALSHA' => function () use ($r, $sha, $keys, $ttl) {
        $token = bin2hex(random_bytes(16));
        return $r->set($keys[0], $token, ['nx', 'px' => $ttl]) === true
            && $r->evalSha($sha, [...$keys, $token], count($keys)) === 1;
    },
];

printf("single server (127.0.0.1:%d), uncontended acquire + release cycles/s, %d rounds of %d ms each, interleaved in %d ms turns\n\n",
    $port, $rounds, $ms, bench_slice_ms());
$results = bench_run($variants, $rounds, $ms);
bench_table($results);

$med = array_map('bench_median', $results);
$base = $med['phpredis SET NX PX + EVALSHA'];
echo "\nratios of medians:\n";
bench_ratio('RedisLock reused / phpredis', $med['RedisLock, one object reused'] / $base, 0.95);
bench_ratio('RedisLock new object / phpredis', $med['RedisLock, new object per cycle'] / $base);

$stats = RedisLock::stats();
echo "\nRedisLock::stats(): ", implode(', ', array_map(fn($k, $v) => "$k $v", array_keys($stats), $stats)), "\n";
