--TEST--
rediss:// with mutual TLS: without a client certificate the server's refusal is reported; tls_cert and tls_key (INI, option or DSN) get in
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../tls.inc';
$dir = rl_tls_certs();
$srv = new RLTlsServer('yes');
ini_set('redislock.tls_ca', "$dir/ca.pem");

function attempt(string $what, string $dsn, array $options = []): void
{
    try {
        $l = new RedisLock('tls:mutual', ['servers' => $dsn] + $options);
        $got = var_export($l->acquire(), true);
        echo "$what: $got ", var_export($l->release(), true), "\n";
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ' ', preg_replace('/\d+\.\d+\.\d+\.\d+:\d+/', 'ADDR', $e->getMessage()), "\n";
    }
}

attempt('no client certificate', $srv->dsn());
attempt('options', $srv->dsn(), ['tls_cert' => "$dir/client.pem", 'tls_key' => "$dir/client.key"]);
attempt('DSN', $srv->dsn('localhost', '?tls_cert=' . rawurlencode("$dir/client.pem") . '&tls_key=' . rawurlencode("$dir/client.key")));
ini_set('redislock.tls_cert', "$dir/client.pem");
ini_set('redislock.tls_key', "$dir/client.key");
attempt('INI', $srv->dsn());
attempt('key without certificate', $srv->dsn(), ['tls_cert' => '']);
attempt('wrong key', $srv->dsn(), ['tls_key' => "$dir/server.key"]);
?>
--EXPECT--
no client certificate: RedisLock\ConnectionException acquire failed: ADDR refused the connection: TLS error: tlsv13 alert certificate required
options: true true
DSN: true true
INI: true true
key without certificate: RedisLock\ConnectionException acquire failed: cannot connect to ADDR: tls_key needs tls_cert
wrong key: RedisLock\ConnectionException acquire failed: cannot connect to ADDR: cannot load the client key (tls_key): key values mismatch
