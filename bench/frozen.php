<?php
/*
 * bench/frozen.php: uncontended acquire + release cycles per second of a
 * quorum lock with a frozen minority (SIGSTOPped servers: they accept
 * connections and never answer) against the same lock over healthy
 * servers, for N = 3 (one frozen) and N = 5 (two frozen), interleaved.
 *
 * Run by bench/run.sh, which starts the healthy servers; this script starts
 * the two it freezes, and stops them on exit.
 */
require __DIR__ . '/bench.inc';

$ports = bench_ports(5);
$rounds = bench_rounds();
$ms = bench_round_ms();

/* Two more servers, frozen for the whole run. */
$frozen = [];
foreach ([0, 1] as $i) {
    $s = stream_socket_server('tcp://127.0.0.1:0');
    $name = stream_socket_get_name($s, false);
    fclose($s);
    $port = (int) substr($name, strrpos($name, ':') + 1);
    $dir = sys_get_temp_dir() . "/redislock-bench-frozen-$port";
    @mkdir($dir, 0700, true);
    exec(sprintf('redis-server --port %d --bind 127.0.0.1 --save "" --appendonly no --daemonize yes --dir %s --pidfile %s/pid --logfile %s/log',
        $port, escapeshellarg($dir), escapeshellarg($dir), escapeshellarg($dir)));
    for ($t = 0; $t < 200 && !@file_get_contents("$dir/pid"); $t++) {
        usleep(10000);
    }
    $frozen[] = ['port' => $port, 'pid' => (int) file_get_contents("$dir/pid")];
}
register_shutdown_function(function () use ($frozen) {
    foreach ($frozen as $f) {
        exec("kill -CONT {$f['pid']}; kill {$f['pid']}");
    }
});
foreach ($frozen as $f) {
    exec("kill -STOP {$f['pid']}");
}

$dsn = fn(array $ps) => implode(',', array_map(fn($p) => "redis://127.0.0.1:$p", $ps));
$opts = ['prefix' => 'bench:frozen:', 'ttl' => 10000, 'quorum_timeout' => 50];
$locks = [
    'healthy N=3' => new RedisLock('h3', ['servers' => $dsn(array_slice($ports, 0, 3))] + $opts),
    '1 of 3 frozen' => new RedisLock('f3', ['servers' => $dsn([$ports[0], $ports[1], $frozen[0]['port']])] + $opts),
    'healthy N=5' => new RedisLock('h5', ['servers' => $dsn($ports)] + $opts),
    '2 of 5 frozen' => new RedisLock('f5', ['servers' => $dsn([$ports[0], $ports[1], $ports[2], $frozen[0]['port'], $frozen[1]['port']])] + $opts),
];
$variants = [];
foreach ($locks as $name => $lock) {
    $variants[$name] = fn() => $lock->acquire() && $lock->release();
}

printf("quorum lock with a frozen minority (quorum_timeout 50 ms), acquire + release cycles/s, %d rounds of %d ms each, interleaved in %d ms turns\n\n",
    $rounds, $ms, bench_slice_ms());
$results = bench_run($variants, $rounds, $ms);
bench_table($results);
$med = array_map('bench_median', $results);
echo "\nratios of medians:\n";
bench_ratio('1 of 3 frozen / healthy N=3', $med['1 of 3 frozen'] / $med['healthy N=3'], 0.5);
bench_ratio('2 of 5 frozen / healthy N=5', $med['2 of 5 frozen'] / $med['healthy N=5'], 0.5);
$stats = RedisLock::stats();
printf("connections opened: %d (reconnects %d) for %d cycles\n", $stats['connects'], $stats['reconnects'], $stats['acquired']);
