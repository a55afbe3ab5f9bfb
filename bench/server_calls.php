<?php
/*
 * bench/server_calls.php PORT [N]: what the server spends on one uncontended
 * acquire and one release, RedisLock against RedisLock\Semaphore:
 *   - the commands each script runs (read from MONITOR over one cycle),
 *   - its CPU per call: the median and mean of N calls as SLOWLOG times them
 *     (slowlog-log-slower-than 0, whole us; the script's commands included).
 * Run by bench/run.sh semaphore after bench/semaphore.php, or alone against
 * any server of one's own (it changes slowlog settings, then restores them).
 */
[, $port, $n] = $argv + [null, '6379', '2000'];
$n = (int) $n;
$opts = ['servers' => "redis://127.0.0.1:$port", 'prefix' => 'bench:server:', 'ttl' => 10000];
$r = new Redis();
$r->connect('127.0.0.1', (int) $port);
$lock = new RedisLock('lock', $opts);
$sem = new RedisLock\Semaphore('sem', 4, $opts);
$ops = [
    'RedisLock acquire' => [fn() => $lock->acquire(), fn() => $lock->release(), 0],
    'RedisLock release' => [fn() => $lock->acquire(), fn() => $lock->release(), 1],
    'Semaphore acquire' => [fn() => $sem->acquire(), fn() => $sem->release(), 0],
    'Semaphore release' => [fn() => $sem->acquire(), fn() => $sem->release(), 1],
];
foreach ($ops as [$a, $b]) {
    $a() && $b(); /* scripts loaded */
}

/* The commands the server runs for one $a(); $b(), in order, from MONITOR:
 * [[top-level command, [commands it ran]], ...]. */
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

/* The server's time for N calls of the operation at $which (0: $a, 1: $b), in us, from SLOWLOG. */
function timed(Redis $r, int $n, callable $a, callable $b, int $which, int $per): array
{
    $saved = $r->config('GET', 'slowlog-*');
    $r->config('SET', 'slowlog-max-len', (string) (4 * $n + 16));
    $r->config('SET', 'slowlog-log-slower-than', '0');
    $r->slowlog('reset');
    for ($i = 0; $i < $n; $i++) {
        $a();
        $b();
    }
    $r->config('SET', 'slowlog-log-slower-than', $saved['slowlog-log-slower-than']);
    $log = array_reverse($r->slowlog('get', -1));
    $r->config('SET', 'slowlog-max-len', $saved['slowlog-max-len']);
    $us = [];
    $k = 0;
    foreach ($log as $e) {
        /* The script's own commands are logged too, from client "?:0". */
        if (($e[4] ?? '') === '?:0' || in_array(strtolower($e[3][0]), ['config', 'slowlog'], true)) {
            continue;
        }
        if ($k++ % $per === $which) {
            $us[] = $e[2];
        }
    }
    sort($us);
    return [$us[intdiv(count($us), 2)], array_sum($us) / max(count($us), 1)];
}

printf("server cost of one uncontended script call (127.0.0.1:%d): commands run (MONITOR), and CPU per call\n", $port);
printf("(SLOWLOG, %d calls: median and mean in us, whole us per call)\n\n", $n);
foreach ($ops as $label => [$a, $b, $which]) {
    $cycle = monitored((int) $port, $a, $b);
    [$top, $calls] = $cycle[$which];
    [$med, $mean] = timed($r, $n, $a, $b, $which, count($cycle));
    printf("  %-18s %-8s %2d commands  median %2d us  mean %5.2f us   %s\n", $label, $top, count($calls) ?: 1, $med,
        $mean, implode(' ', $calls));
}
