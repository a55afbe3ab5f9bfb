<?php
/*
 * bench/native.php PORT [N] [ROUNDS]: what the server spends on a lock
 * released and extended by its native commands (DELIFEQ or DELEX, SET IFEQ)
 * against the scripts, on the same server in one run (native_commands = 0
 * forces the scripts):
 *   - an uncontended cycle: acquire + extend + release, N cycles a turn;
 *   - a contended section: 4 forked workers taking turns on one lock
 *     (acquire with a wait, release), N/4 sections each a turn.
 * Per turn it reads the server's CPU (INFO cpu: used_cpu_user + used_cpu_sys,
 * less what it spends idle in as long, measured first)
 * and the time INFO commandstats gives the commands (usec, scripts including
 * the commands they run); the variants take turns ROUNDS times, and it
 * prints the median per cycle or section, with the range over the rounds.
 * Against a server of one's own on loopback, e.g. Valkey 9 built by
 * scripts/build/server-src.sh:
 *   PATH="$(bash scripts/build/server-src.sh valkey)/bin:$PATH" redis-server --port 7399 --save '' --daemonize yes
 *   php -d extension=modules/redislock.so bench/native.php 7399
 */
[, $port, $n, $rounds] = $argv + [null, '6379', '5000', '7'];
$n = (int) $n;
$rounds = (int) $rounds;
$dsn = "redis://127.0.0.1:$port";

function info(string $port, string $section): string
{
    $s = stream_socket_client("tcp://127.0.0.1:$port");
    fwrite($s, "INFO $section\r\n");
    $len = (int) substr(fgets($s), 1);
    $out = '';
    while (strlen($out) < $len + 2) {
        $out .= fread($s, $len + 2 - strlen($out));
    }
    fclose($s);
    return $out;
}

/* The server's CPU seconds and the commands' usec so far. */
function server_cost(string $port): array
{
    preg_match('/used_cpu_sys:([\d.]+)/', $cpu = info($port, 'cpu'), $sys);
    preg_match('/used_cpu_user:([\d.]+)/', $cpu, $user);
    preg_match_all('/^cmdstat_[^:]+:calls=\d+,usec=(\d+)/m', info($port, 'commandstats'), $usec);
    return [(float) $sys[1] + (float) $user[1], array_sum(array_map('intval', $usec[1]))];
}

function commands_of(string $port): string
{
    preg_match_all('/^cmdstat_([^:]+):calls=(\d+)/m', info($port, 'commandstats'), $m);
    return implode(' ', array_map(fn($c, $k) => "$c=$k", $m[1], $m[2]));
}

function uncontended(string $dsn, bool $native, int $n): void
{
    $l = new RedisLock('bench:native:free', ['servers' => $dsn, 'ttl' => 10000, 'native_commands' => $native]);
    for ($i = 0; $i < $n; $i++) {
        $l->acquire() && $l->extend() && $l->release() || exit("cycle failed\n");
    }
}

function contended(string $dsn, bool $native, int $n): void
{
    $pids = [];
    for ($w = 0; $w < 4; $w++) {
        if (($pid = pcntl_fork()) === 0) {
            $l = new RedisLock('bench:native:busy', ['servers' => $dsn, 'ttl' => 10000, 'native_commands' => $native]);
            for ($i = 0; $i < intdiv($n, 4); $i++) {
                $l->acquire(60000) && $l->release() || exit(1);
            }
            exit(0);
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $st);
        pcntl_wexitstatus($st) === 0 || exit("worker failed\n");
    }
}

/* The commands of one cycle of each kind, to show what runs. */
foreach ([true, false] as $native) {
    info($port, 'commandstats');
    $s = stream_socket_client("tcp://127.0.0.1:$port");
    fwrite($s, "CONFIG RESETSTAT\r\n");
    fgets($s);
    uncontended($dsn, $native, 1);
    echo $native ? 'native' : 'scripts', ' cycle runs: ', commands_of($port), "\n";
}

/* What the server spends idle (its cron, at hz), per second: taken off
 * each turn for its length, so that a slow turn on a busy machine does not
 * count the server's background work as the cycles'. */
[$idle0] = server_cost($port);
$t0 = hrtime(true);
usleep(2000000);
[$idle1] = server_cost($port);
$idle = ($idle1 - $idle0) / ((hrtime(true) - $t0) / 1e9);

$kinds = ['uncontended cycle' => 'uncontended', 'contended section' => 'contended'];
$results = [];
for ($r = 0; $r < $rounds; $r++) {
    foreach ($kinds as $label => $fn) {
        foreach (($r % 2 ? [false, true] : [true, false]) as $native) {
            [$cpu0, $usec0] = server_cost($port);
            $t = hrtime(true);
            $fn($dsn, $native, $n);
            $t = (hrtime(true) - $t) / 1e9;
            [$cpu1, $usec1] = server_cost($port);
            $results[$label][$native ? 'native' : 'scripts']['cpu'][] = ($cpu1 - $cpu0 - $idle * $t) * 1e6 / $n;
            $results[$label][$native ? 'native' : 'scripts']['usec'][] = ($usec1 - $usec0) / $n;
        }
    }
}

function median(array $v): float
{
    sort($v);
    $k = count($v);
    return $k % 2 ? $v[intdiv($k, 2)] : ($v[$k / 2 - 1] + $v[$k / 2]) / 2;
}

printf("%s, idle %.1f ms CPU/s (taken off), %d per turn, %d rounds (median [min-max], server us each)\n",
    preg_match('/^valkey_version:(\S+)/m', $srv = info($port, 'server'), $v) ? "valkey $v[1]"
        : (preg_match('/^redis_version:(\S+)/m', $srv, $v) ? "redis $v[1]" : '?'), $idle * 1e3, $n, $rounds);
printf("%-18s %-8s %-26s %-26s %s\n", 'what', 'via', 'server CPU', 'commandstats usec', 'native/scripts: CPU / usec');
foreach ($results as $label => $vias) {
    foreach ($vias as $via => $m) {
        $ratio = $via === 'native' ? sprintf('%.2f / %.2f', median($m['cpu']) / median($vias['scripts']['cpu']),
            median($m['usec']) / median($vias['scripts']['usec'])) : '';
        printf("%-18s %-8s %6.1f [%5.1f-%5.1f]      %6.2f [%5.2f-%5.2f]      %s\n", $label, $via, median($m['cpu']),
            min($m['cpu']), max($m['cpu']), median($m['usec']), min($m['usec']), max($m['usec']), $ratio);
    }
}
