<?php
/*
 * bench/server_calls.php [PORT [N]]: what the server spends on one uncontended
 * acquire + release cycle, RedisLock against RedisLock\Semaphore:
 *   - the commands each call runs (MONITOR over one cycle);
 *   - its time per call from SLOWLOG (slowlog-log-slower-than 0, whole us,
 *     median and mean of N calls; the script's own commands are logged too,
 *     which adds to a script's time in proportion to the commands it runs);
 *   - per cycle, the variants taking turns in chunks: the time INFO commandstats gives the
 *     client's commands (scripts include the commands they run; no logging),
 *     and the server process's CPU (INFO cpu, user + sys: with the reading
 *     and writing of the connection).
 * Run by bench/run.sh server_calls (on the first of its servers), or alone
 * against a server of one's own (it resets its statistics and restores its
 * slowlog settings).
 */
require __DIR__ . '/bench.inc';

[, $port, $n] = $argv + [null, null, '5000'];
$port ??= bench_ports(1)[0];
$n = (int) $n;
$opts = ['servers' => "redis://127.0.0.1:$port", 'prefix' => 'bench:server:', 'ttl' => 10000];
$r = new Redis();
$r->connect('127.0.0.1', (int) $port);
$lock = new RedisLock('lock', $opts);
$sem = new RedisLock\Semaphore('sem', 4, $opts);
$cycles = [
    'RedisLock' => [fn() => $lock->acquire(), fn() => $lock->release()],
    'Semaphore' => [fn() => $sem->acquire(), fn() => $sem->release()],
];
foreach ($cycles as [$a, $b]) {
    $a() && $b(); /* the scripts loaded */
}

/* The commands the server runs for one $a(); $b(), in order, from MONITOR:
 * [[the client's command, [the commands it ran]], ...]. */
function monitored(int $port, callable $a, callable $b): array
{
    $m = stream_socket_client("tcp://127.0.0.1:$port");
    fwrite($m, "MONITOR\r\n");
    fgets($m);
    $a();
    $b();
    fwrite($m, "PING\r\n"); /* ends the capture: MONITOR shows its own connection's commands too */
    $out = [];
    while (($line = fgets($m)) !== false) {
        if (!preg_match('/^\+\S+ \[\d+ ([^\]]+)\] "([^"]+)"/', $line, $g)) {
            continue;
        }
        $cmd = strtolower($g[2]);
        if ($cmd === 'ping') {
            break;
        }
        if (str_starts_with($g[1], 'lua')) {
            $out[count($out) - 1][1][] = $cmd;
        } else {
            $out[] = [$cmd, []];
        }
    }
    fclose($m);
    return $out;
}

/* SLOWLOG times of N cycles: for each of the cycle's $per client commands, [median, mean] in us. */
function slowlogged(Redis $r, int $n, callable $a, callable $b, int $per): array
{
    $saved = $r->config('GET', 'slowlog-*');
    $r->config('SET', 'slowlog-max-len', (string) (16 * $n + 16));
    $r->config('SET', 'slowlog-log-slower-than', '0');
    $r->slowlog('reset');
    for ($i = 0; $i < $n; $i++) {
        $a();
        $b();
    }
    $r->config('SET', 'slowlog-log-slower-than', $saved['slowlog-log-slower-than']);
    $log = array_reverse($r->slowlog('get', -1));
    $r->config('SET', 'slowlog-max-len', $saved['slowlog-max-len']);
    $us = array_fill(0, $per, []);
    $k = 0;
    foreach ($log as $e) {
        /* A script's own commands are logged too, from client "?:0". */
        if (($e[4] ?? '') === '?:0' || in_array(strtolower($e[3][0]), ['config', 'slowlog'], true)) {
            continue;
        }
        $us[$k++ % $per][] = $e[2];
    }
    return array_map(function ($v) {
        sort($v);
        return [$v[intdiv(count($v), 2)], array_sum($v) / max(count($v), 1)];
    }, $us);
}

/* Per cycle, the variants (name => [$a, $b, client commands]) taking turns in
 * chunks of 250 cycles, N cycles each in all: for each, the median over its
 * chunks of [commandstats us of the client's commands, server CPU us]. */
function per_cycle(Redis $r, int $n, array $variants): array
{
    $cpu = function () use ($r) {
        $c = $r->info('cpu');
        return ($c['used_cpu_user'] + $c['used_cpu_sys']) * 1e6;
    };
    $out = array_fill_keys(array_keys($variants), [[], []]);
    for ($done = 0; $done < $n; $done += 250) {
        foreach ($variants as $name => [$a, $b, $top]) {
            $r->rawCommand('CONFIG', 'RESETSTAT');
            $cpu0 = $cpu();
            for ($i = 0; $i < 250; $i++) {
                $a();
                $b();
            }
            $used = $cpu() - $cpu0;
            $stats = $r->info('commandstats');
            $us = 0;
            foreach (array_unique($top) as $cmd) {
                preg_match('/usec=(\d+)/', $stats["cmdstat_$cmd"] ?? '', $g);
                $us += (int) ($g[1] ?? 0);
            }
            $out[$name][0][] = $us / 250;
            $out[$name][1][] = $used / 250;
        }
    }
    return array_map(fn($v) => [bench_median($v[0]), bench_median($v[1])], $out);
}

printf("server cost of one uncontended cycle (127.0.0.1:%d), %d cycles each; times in us\n", $port, $n);
$seen = [];
foreach ($cycles as $name => [$a, $b]) {
    $seen[$name] = monitored((int) $port, $a, $b);
    $cycles[$name][] = array_column($seen[$name], 0);
}
$each = per_cycle($r, $n, $cycles);
foreach ($cycles as $name => [$a, $b]) {
    $cycle = $seen[$name];
    $times = slowlogged($r, $n, $a, $b, count($cycle));
    [$us, $cpu] = $each[$name];
    printf("\n  %s cycle: %.2f us in commands (commandstats), %.1f us server CPU with I/O (INFO cpu); medians of chunks"
        . " of 250 cycles, the variants taking turns\n", $name, $us, $cpu);
    foreach ($cycle as $i => [$top, $calls]) {
        printf("    %-8s %2d commands  SLOWLOG median %2d, mean %5.2f   %s\n", $top, count($calls) ?: 1, $times[$i][0],
            $times[$i][1], implode(' ', $calls));
    }
}
