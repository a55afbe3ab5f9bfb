--TEST--
A port that does not speak RESP (an HTTP server, a TLS alert) gives "protocol error from HOST: got "H"": the first byte received, and only that byte, shown safely ("\xNN" when not printable); RedisLock\ConnectionException
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!function_exists('proc_open')) die('skip proc_open() not available');
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';

/* A responder on a loopback port (a php -n child): each connection gets
 * the next greeting once the client's first bytes came, then is closed. */
$greetings = ["HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", "\x15\x03\x03\x00\x02\x02\x32",
    "\"quoted\r\n"];
$code = <<<'PHP'
$srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
echo 'READY ', parse_url('tcp://' . stream_socket_get_name($srv, false), PHP_URL_PORT), "\n";
foreach (array_map('base64_decode', array_slice($argv, 1)) as $greeting) {
    $c = @stream_socket_accept($srv, 30);
    if (!$c) {
        break;
    }
    stream_set_timeout($c, 2);
    fread($c, 65536);
    fwrite($c, $greeting);
    stream_socket_shutdown($c, STREAM_SHUT_WR);
    while (!feof($c) && fread($c, 65536) !== '') {
    }
    fclose($c);
}
PHP;
$cmd = array_merge([PHP_BINARY, '-n', '-r', $code, '--'], array_map('base64_encode', $greetings));
$proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $pipes);
$port = (int) substr((string) fgets($pipes[1]), 6);

$secret = 'Never-Shown-Passw0rd';
foreach (['an HTTP server', 'a TLS alert', 'a quote'] as $what) {
    $l = new RedisLock('job', ['servers' => "redis://:$secret@127.0.0.1:$port", 'read_timeout' => 2000]);
    try {
        var_dump($l->acquire());
    } catch (RedisLockException $e) {
        echo "$what: ", rl_msg($e, $port), "\n";
        var_dump(str_contains((string) $e, $secret));
    }
}
fclose($pipes[0]);
fclose($pipes[1]);
proc_close($proc);
?>
--EXPECT--
an HTTP server: RedisLock\ConnectionException: acquire failed: protocol error from 127.0.0.1:PORT: got "H"
bool(false)
a TLS alert: RedisLock\ConnectionException: acquire failed: protocol error from 127.0.0.1:PORT: got "\x15"
bool(false)
a quote: RedisLock\ConnectionException: acquire failed: protocol error from 127.0.0.1:PORT: got "\x22"
bool(false)
