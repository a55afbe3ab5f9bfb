--TEST--
A held lock whose server stops answering: calls throw after read_timeout but the hold is kept; it is still ours afterwards
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';
$srv = new RLServer();
$prefix = 'rltest:server_frozen_while_held:';
$l = new RedisLock('job', ['servers' => $srv->dsn(), 'prefix' => $prefix, 'read_timeout' => 200, 'ttl' => 60000]);
var_dump($l->acquire());
$token = $l->token();

$srv->freeze();
try {
    foreach (['isAcquired', 'extend', 'acquire'] as $m) {
        $t = hrtime(true);
        try {
            var_dump($l->$m());
        } catch (RedisLockException $e) {
            echo rl_msg($e, $srv->port), "\n";
        }
        $ms = (hrtime(true) - $t) / 1e6;
        echo $ms >= 190 && $ms < 200 * 3 + 2000 ? "waited for the timeout\n" : "waited $ms ms\n";
        /* Unknown is not lost: the lease is still running. */
        var_dump($l->token() === $token, $l->remaining() > 50000);
    }
} finally {
    $srv->thaw();
}

var_dump($l->isAcquired());
var_dump($l->extend());
var_dump($l->release());
var_dump($srv->client()->cmd('EXISTS', $prefix . 'job'));
$srv->stop();
?>
--EXPECT--
bool(true)
RedisLock\ConnectionException: isAcquired failed: 127.0.0.1:PORT did not reply within 200 ms
waited for the timeout
bool(true)
bool(true)
RedisLock\ConnectionException: extend failed: 127.0.0.1:PORT did not reply within 200 ms
waited for the timeout
bool(true)
bool(true)
RedisLock\ConnectionException: acquire failed: 127.0.0.1:PORT did not reply within 200 ms
waited for the timeout
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
