--TEST--
A server that stops answering: acquire() throws after read_timeout, never returns true; after it wakes up locks work again
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$srv = new RLServer();
$prefix = 'rltest:server_frozen_timeout:';
$opts = ['servers' => $srv->dsn(), 'prefix' => $prefix, 'read_timeout' => 200, 'connect_timeout' => 200, 'ttl' => 1000];
$l = new RedisLock('job', $opts);

/* A warm connection, as a long-running worker would have. */
var_dump($l->acquire(), $l->release());
$before = RedisLock::stats();

$srv->freeze();
try {
    for ($i = 0; $i < 2; $i++) {
        $t = hrtime(true);
        try {
            $r = $l->acquire();
            echo 'acquire returned ';
            var_dump($r);
        } catch (RedisLockException $e) {
            echo str_replace((string) $srv->port, 'PORT', $e->getMessage()), "\n";
        }
        $ms = (hrtime(true) - $t) / 1e6;
        /* It waited for the timeout, and not much longer. */
        echo $ms >= 190 && $ms < 200 * 3 + 2000 ? "waited for the timeout\n" : "waited $ms ms\n";
        var_dump($l->token(), $l->remaining());
    }
} finally {
    $srv->thaw();
}

/* Once the server answers again the connection is replaced without fuss.
 * The frozen server may still run the first attempt's SET when it wakes,
 * which leaves a key that expires after the ttl (1 s): wait past it. */
var_dump($l->acquire(5000));
var_dump($srv->client()->cmd('GET', $prefix . 'job') === $l->token());
var_dump($l->release());
var_dump($srv->client()->cmd('EXISTS', $prefix . 'job'));
/* Whatever else the wait left on the server expires on its own. */
$keys = $srv->client()->cmd('KEYS', '*');
foreach ($keys as $k) {
    if (!str_starts_with($k, $prefix . 'job') || $srv->client()->cmd('PTTL', $k) <= 0) {
        echo "left behind: $k\n";
    }
}
$after = RedisLock::stats();
var_dump($after['errors'] - $before['errors']);
var_dump($after['acquired'] - $before['acquired']);
$srv->stop();
?>
--EXPECT--
bool(true)
bool(true)
acquire failed: 127.0.0.1:PORT did not reply within 200 ms
waited for the timeout
NULL
int(0)
acquire failed: 127.0.0.1:PORT did not reply within 200 ms
waited for the timeout
NULL
int(0)
bool(true)
bool(true)
bool(true)
int(0)
int(2)
int(1)
