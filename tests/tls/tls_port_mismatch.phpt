--TEST--
rediss:// to a plain port ends in a handshake timeout within connect_timeout, and redis:// to a TLS port says to use rediss://
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../tls.inc';
$srv = new RLTlsServer();
$plain = $srv->server->port;
foreach (["rediss://127.0.0.1:$plain" => 'TLS client, plain port', "redis://127.0.0.1:{$srv->tls_port}" => 'plain client, TLS port'] as $dsn => $what) {
    try {
        $l = new RedisLock('tls:mismatch', ['servers' => $dsn, 'connect_timeout' => 300, 'tls_verify' => false]);
        $l->acquire();
        echo "$what: no exception\n";
    } catch (RedisLock\ConnectionException $e) {
        $m = $e->getMessage();
        /* The ClientHello may hold a newline by chance: then the server
         * answers it with an error, which is not TLS either. */
        echo "$what: ", match (true) {
            str_contains($m, 'TLS handshake timed out after 300 ms'), str_contains($m, 'does not speak TLS on this port') => 'not a TLS port',
            str_contains($m, 'if this port speaks TLS, use rediss://') => 'use rediss://',
            default => $m,
        }, "\n";
    }
}
?>
--EXPECT--
TLS client, plain port: not a TLS port
plain client, TLS port: use rediss://
