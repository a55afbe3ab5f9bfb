<?php
/*
 * bench/shared_cost.php: where an uncontended shared cycle's time goes, next
 * to an exclusive one's.
 *
 * 1. Cycles/s, interleaved (as bench/shared.php's first part): acquire() +
 *    release() against acquireRead() + release(), with the ratio of each
 *    round (the spread) besides the ratio of medians.
 * 2. The server's side, per operation: N holds taken on N names, then N
 *    released, with INFO commandstats read around each phase (calls and usec
 *    of SET and EVALSHA: the server's time inside each command, scripts
 *    included) and the server's CPU (used_cpu_user + used_cpu_sys) around a
 *    run of whole cycles.
 *
 * Run by bench/run.sh (bench/run.sh shared_cost).
 */
require __DIR__ . '/bench.inc';

[$port] = bench_ports(1);
$rounds = bench_rounds();
$ms = bench_round_ms();
$opts = ['servers' => "redis://127.0.0.1:$port", 'prefix' => 'bench:cost:', 'ttl' => 10000];

$x = new RedisLock('x', $opts);
$rd = new RedisLock('r', $opts);
$variants = [
    'acquire + release' => fn() => $x->acquire() && $x->release(),
    'acquireRead + release' => fn() => $rd->acquireRead() && $rd->release(),
];
printf("single server (127.0.0.1:%d), uncontended cycles/s, %d rounds of %d ms each, interleaved in %d ms turns\n\n",
    $port, $rounds, $ms, bench_slice_ms());
$results = bench_run($variants, $rounds, $ms);
bench_table($results);
$ratios = array_map(fn($s, $e) => $s / $e, $results['acquireRead + release'], $results['acquire + release']);
sort($ratios);
$med = array_map('bench_median', $results);
printf("\nread cycle rate / exclusive cycle rate: %.2f (ratio of medians; rounds %.2f to %.2f; target >= 0.91)\n",
    $med['acquireRead + release'] / $med['acquire + release'], $ratios[0], end($ratios));

/* {{{ the server's side */
$r = new Redis();
$r->connect('127.0.0.1', $port);

/* calls and usec of each command, from INFO commandstats */
function cmdstats(Redis $r): array
{
    $out = [];
    foreach ($r->info('commandstats') as $k => $v) {
        if (preg_match('/calls=(\d+),usec=(\d+)/', $v, $m)) {
            $out[substr($k, 8)] = [(int) $m[1], (int) $m[2]];
        }
    }
    return $out;
}

function cpu(Redis $r): float
{
    $i = $r->info('cpu');
    return (float) $i['used_cpu_user'] + (float) $i['used_cpu_sys'];
}

/* Prints the commands run between $a and $b, per operation of $n. */
function delta(string $label, array $a, array $b, int $n): void
{
    $parts = [];
    $total = 0;
    foreach ($b as $cmd => [$calls, $usec]) {
        [$c0, $u0] = $a[$cmd] ?? [0, 0];
        if ($calls - $c0 >= $n / 2 && !in_array($cmd, ['info', 'ping'], true)) {
            $parts[] = sprintf('%s %.2f calls %.2f us/call', $cmd, ($calls - $c0) / $n, ($usec - $u0) / max(1, $calls - $c0));
            $total += $usec - $u0;
        }
    }
    printf("  %-26s %5.2f us per op   (%s)\n", $label, $total / $n, implode('; ', $parts));
}

$n = (int) (getenv('REDISLOCK_BENCH_OPS') ?: 20000);
echo "\nserver time per operation (INFO commandstats usec), $n holds on $n names:\n";
foreach (['exclusive' => 'acquire', 'shared' => 'acquireRead'] as $kind => $method) {
    for ($rep = 0; $rep < 3; $rep++) {
        $locks = [];
        for ($i = 0; $i < $n; $i++) {
            $locks[] = new RedisLock("n$i", $opts);
        }
        $locks[0]->$method() && $locks[0]->release();
        $s0 = cmdstats($r);
        foreach ($locks as $l) {
            $l->$method() || exit(1);
        }
        $s1 = cmdstats($r);
        foreach ($locks as $l) {
            $l->release() || exit(1);
        }
        $s2 = cmdstats($r);
        delta("$kind $method", $s0, $s1, $n);
        delta("$kind release", $s1, $s2, $n);
    }
}

echo "\nserver CPU per cycle (used_cpu_user + used_cpu_sys over $n cycles, 3 runs each, alternating):\n";
$per = ['acquire + release' => [], 'acquireRead + release' => []];
for ($rep = 0; $rep < 3; $rep++) {
    foreach ($variants as $name => $cycle) {
        $c0 = cpu($r);
        for ($i = 0; $i < $n; $i++) {
            $cycle();
        }
        $per[$name][] = (cpu($r) - $c0) / $n * 1e6;
    }
}
foreach ($per as $name => $v) {
    printf("  %-24s %s us\n", $name, implode(' ', array_map(fn($x) => sprintf('%.2f', $x), $v)));
}
/* }}} */
