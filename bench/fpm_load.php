<?php
/*
 * bench/fpm_load.php: a small FastCGI load generator for bench/fpm.sh.
 *
 *   php -n bench/fpm_load.php NAME=SOCKET=SCRIPT [NAME=SOCKET=SCRIPT ...]
 *
 * Each variant is an endpoint script served by a php-fpm pool listening on
 * the unix socket SOCKET. Keeps REDISLOCK_BENCH_FPM_CONCURRENCY (default 8)
 * requests in flight, each on a new connection as a web server does without
 * keep-alive to its FastCGI backend, for REDISLOCK_BENCH_FPM_ROUND_MS
 * (default 5000) per variant and round, over REDISLOCK_BENCH_FPM_ROUNDS
 * (default 3) rounds; the variants take turns within each round (order
 * rotating) after a warm-up of one second each. Prints requests/s per round
 * and their median, and the latency percentiles over all rounds.
 *
 * A response other than "ok" (status 200) counts as an error, except "busy"
 * (409: another request held that item's lock), which is counted apart.
 */

$variants = [];
foreach (array_slice($argv, 1) as $arg) {
    /* The name may hold '=' itself; the socket and the script do not. */
    $parts = explode('=', $arg);
    $script = count($parts) >= 3 ? array_pop($parts) : null;
    $socket = array_pop($parts);
    $name = implode('=', $parts);
    if ($script === null) {
        fwrite(STDERR, "usage: php bench/fpm_load.php NAME=SOCKET=SCRIPT ...\n");
        exit(2);
    }
    $variants[$name] = [$socket, realpath($script) ?: $script];
}
$concurrency = max(1, (int) (getenv('REDISLOCK_BENCH_FPM_CONCURRENCY') ?: 8));
$roundMs = max(200, (int) (getenv('REDISLOCK_BENCH_FPM_ROUND_MS') ?: 5000));
$rounds = max(1, (int) (getenv('REDISLOCK_BENCH_FPM_ROUNDS') ?: 3));

/* The bytes of one GET request for $script: BEGIN_REQUEST (responder, close
 * when done), PARAMS, an empty PARAMS, an empty STDIN. */
function fcgi_request(string $script): string
{
    $params = [
        'GATEWAY_INTERFACE' => 'CGI/1.1',
        'SERVER_SOFTWARE' => 'redislock-bench',
        'SERVER_PROTOCOL' => 'HTTP/1.1',
        'REQUEST_METHOD' => 'GET',
        'SCRIPT_FILENAME' => $script,
        'SCRIPT_NAME' => '/' . basename($script),
        'REQUEST_URI' => '/' . basename($script),
        'DOCUMENT_URI' => '/' . basename($script),
        'DOCUMENT_ROOT' => dirname($script),
        'QUERY_STRING' => '',
        'REMOTE_ADDR' => '127.0.0.1',
        'SERVER_ADDR' => '127.0.0.1',
        'SERVER_PORT' => '80',
        'SERVER_NAME' => 'localhost',
    ];
    $pairs = '';
    foreach ($params as $k => $v) {
        foreach ([strlen($k), strlen($v)] as $n) {
            $pairs .= $n < 128 ? chr($n) : pack('N', $n | 0x80000000);
        }
        $pairs .= $k . $v;
    }
    $record = fn(int $type, string $data) => pack('CCnnCC', 1, $type, 1, strlen($data), 0, 0) . $data;
    return $record(1, pack('nCx5', 1, 0)) . $record(4, $pairs) . $record(4, '') . $record(5, '');
}

/* The outcome of a complete response: 'ok', 'busy' or 'error'; null while
 * the END_REQUEST record has not come. */
function fcgi_outcome(string $data): ?string
{
    $stdout = '';
    for ($off = 0; $off + 8 <= strlen($data); $off += 8 + $len + $pad) {
        ['type' => $type, 'len' => $len, 'pad' => $pad] = unpack('Cv/Ctype/nid/nlen/Cpad', $data, $off);
        if ($off + 8 + $len + $pad > strlen($data)) {
            return null;
        }
        if ($type === 6) {
            $stdout .= substr($data, $off + 8, $len);
        } elseif ($type === 3) {
            $body = substr($stdout, (int) strpos($stdout, "\r\n\r\n") + 4);
            return $body === "ok\n" ? 'ok' : ($body === "busy\n" ? 'busy' : 'error');
        }
    }
    return null;
}

/* Keeps $concurrency requests in flight for $ms; returns
 * [completed, seconds, latencies in microseconds, busy, errors]. */
function drive(string $socket, string $request, int $concurrency, int $ms): array
{
    $open = function () use ($socket, $request) {
        $s = @stream_socket_client("unix://$socket", $errno, $errstr, 5);
        if (!$s) {
            return null;
        }
        stream_set_blocking($s, false);
        fwrite($s, $request);
        return $s;
    };
    $slots = [];
    $start = hrtime(true);
    $end = $start + $ms * 1000000;
    $lat = [];
    $busy = $errors = 0;
    for ($i = 0; $i < $concurrency; $i++) {
        $slots[$i] = [$open(), hrtime(true), ''];
    }
    while ($slots) {
        $read = [];
        foreach ($slots as $i => [$s]) {
            if ($s === null) {
                $errors++;
                unset($slots[$i]);
                continue;
            }
            $read[$i] = $s;
        }
        if (!$read) {
            break;
        }
        $w = $e = null;
        if (@stream_select($read, $w, $e, 5) === 0) {
            fwrite(STDERR, "no response within 5 s\n");
            exit(1);
        }
        foreach ($read as $i => $s) {
            $chunk = fread($s, 65536);
            $slots[$i][2] .= (string) $chunk;
            $outcome = fcgi_outcome($slots[$i][2]);
            if ($outcome === null && !feof($s)) {
                continue;
            }
            $now = hrtime(true);
            fclose($s);
            if ($outcome === 'ok') {
                $lat[] = intdiv($now - $slots[$i][1], 1000);
            } elseif ($outcome === 'busy') {
                $busy++;
            } else {
                $errors++;
            }
            if ($now < $end) {
                $slots[$i] = [$open(), hrtime(true), ''];
            } else {
                unset($slots[$i]);
            }
        }
    }
    return [count($lat) + $busy, (hrtime(true) - $start) / 1e9, $lat, $busy, $errors];
}

function percentile(array $sorted, float $p): float
{
    return $sorted ? $sorted[min(count($sorted) - 1, (int) ceil($p / 100 * count($sorted)) - 1)] / 1000 : 0.0;
}

$requests = array_map(fn($v) => fcgi_request($v[1]), $variants);
$names = array_keys($variants);
printf("%d requests in flight, %d rounds of %d ms per variant, interleaved\n\n", $concurrency, $rounds, $roundMs);
foreach ($names as $name) {
    drive($variants[$name][0], $requests[$name], $concurrency, 1000);
}
$rps = array_fill_keys($names, []);
$lat = array_fill_keys($names, []);
$busy = $errors = array_fill_keys($names, 0);
for ($r = 0; $r < $rounds; $r++) {
    $order = array_merge(array_slice($names, $r % count($names)), array_slice($names, 0, $r % count($names)));
    foreach ($order as $name) {
        [$n, $secs, $l, $b, $e] = drive($variants[$name][0], $requests[$name], $concurrency, $roundMs);
        $rps[$name][] = $n / $secs;
        array_push($lat[$name], ...$l);
        $busy[$name] += $b;
        $errors[$name] += $e;
    }
}

$width = max(array_map('strlen', $names)) + 2;
$head = str_pad('variant', $width);
for ($r = 1; $r <= $rounds; $r++) {
    $head .= sprintf('%9s', "round $r");
}
$head .= sprintf('%10s%9s%9s%9s%7s%7s', 'median/s', 'p50 ms', 'p99 ms', 'max ms', 'busy', 'errors');
echo $head, "\n", str_repeat('-', strlen($head)), "\n";
$medians = [];
foreach ($names as $name) {
    $v = $rps[$name];
    sort($v);
    $medians[$name] = count($v) % 2 ? $v[intdiv(count($v), 2)] : ($v[count($v) / 2 - 1] + $v[count($v) / 2]) / 2;
    sort($lat[$name]);
    $line = str_pad($name, $width);
    foreach ($rps[$name] as $x) {
        $line .= sprintf('%9.0f', $x);
    }
    $line .= sprintf('%10.0f%9.2f%9.2f%9.2f%7d%7d', $medians[$name], percentile($lat[$name], 50),
        percentile($lat[$name], 99), percentile($lat[$name], 100), $busy[$name], $errors[$name]);
    echo $line, "\n";
}
echo "\nmedian requests/s relative to the last variant:\n";
$base = end($medians);
foreach ($medians as $name => $m) {
    printf("  %-*s %6.2f\n", $width, $name, $base > 0 ? $m / $base : 0);
}
exit(array_sum($errors) > 0 ? 1 : 0);
