--TEST--
A server that never completes the TCP handshake: acquire() throws after connect_timeout, not later
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
/* A listening socket whose accept queue is full and never drained: the
 * kernel drops further SYNs, so a connect hangs until its timeout. */
$ctx = stream_context_create(['socket' => ['backlog' => 0]]);
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $ctx);
$name = stream_socket_get_name($server, false);
$port = (int) substr($name, strrpos($name, ':') + 1);
$fill = [];
for ($i = 0; $i < 4; $i++) {
    $fill[] = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2,
        STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT);
}
usleep(50000);

$l = new RedisLock('job', [
    'servers' => "redis://:Secret-Pw-1@127.0.0.1:$port",
    'prefix' => 'rltest:server_connect_timeout:',
    'connect_timeout' => 300,
    'read_timeout' => 300,
]);
$t = hrtime(true);
try {
    var_dump($l->acquire());
} catch (RedisLockException $e) {
    echo get_class($e), ': ', str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
    var_dump(str_contains((string) $e, 'Secret-Pw-1'));
}
$ms = (hrtime(true) - $t) / 1e6;
echo $ms >= 290 && $ms < 300 + 1500 ? "waited for connect_timeout\n" : "waited $ms ms\n";
var_dump($l->token());
?>
--EXPECTF--
RedisLock\ConnectionException: acquire failed: cannot connect to 127.0.0.1:PORT: %s
bool(false)
waited for connect_timeout
NULL
