<?php
/*
 * bench/tls.php: uncontended acquire + release cycles per second over TLS
 * (rediss://, persistent connection, certificate and host name verified)
 * against plain TCP to the same redis-server in the same run: one server
 * with a plain port and a TLS port, certificates made with openssl (the
 * tests' own helper, tests/tls.inc). Variants take turns within each round;
 * the ratio is given as the ratio of medians and as the spread of the
 * per-round ratios. Target: TLS >= 0.85 of plain TCP.
 *
 * Run by bench/run.sh tls (or alone: php -n -d extension=... bench/tls.php).
 */
require __DIR__ . '/bench.inc';

$dir = sys_get_temp_dir() . '/redislock-bench-tls-' . getmypid();
@mkdir($dir, 0700, true);
putenv("REDISLOCK_TEST_RUNDIR=$dir");
require __DIR__ . '/../tests/tls.inc';

$srv = new RLTlsServer();
$certs = rl_tls_certs();
$rounds = bench_rounds();
$ms = bench_round_ms();
$base = ['prefix' => 'bench:tls:', 'ttl' => 10000];

$plain = new RedisLock('plain', $base + ['servers' => $srv->server->dsn()]);
$tls = new RedisLock('tls', $base + ['servers' => $srv->dsn(), 'tls_ca' => "$certs/ca.pem"]);
$variants = [
    'plain TCP (redis://)' => fn () => $plain->acquire() && $plain->release(),
    'TLS (rediss://, verified)' => fn () => $tls->acquire() && $tls->release(),
];

printf("one server (127.0.0.1, plain port %d, TLS port %d), uncontended acquire + release cycles/s, %d rounds of %d ms each, interleaved in %d ms turns\n\n",
    $srv->server->port, $srv->tls_port, $rounds, $ms, bench_slice_ms());
$before = RedisLock::stats();
$results = bench_run($variants, $rounds, $ms);
bench_table($results);

$names = array_keys($variants);
$per_round = array_map(fn ($p, $t) => $t / $p, $results[$names[0]], $results[$names[1]]);
$med = array_map('bench_median', $results);
echo "\nratios:\n";
bench_ratio('TLS / plain TCP, ratio of medians', $med[$names[1]] / $med[$names[0]], 0.85);
printf("  %-44s %6.2f .. %.2f (median %.2f)\n", 'per-round ratios (spread)', min($per_round), max($per_round),
    bench_median($per_round));
$after = RedisLock::stats();
printf("\nconnections opened during the run: %d (reconnects %d)\n", $after['connects'] - $before['connects'],
    $after['reconnects'] - $before['reconnects']);
unset($srv);
exec('rm -rf ' . escapeshellarg($dir));
