--TEST--
Keepalive over rediss:// with mutual TLS: the thread's own connection verifies the server and presents the client certificate, and keeps the hold alive
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../tls.inc';
$dir = rl_tls_certs();
$srv = new RLTlsServer('yes');
$p = 'rltest:keepalive_tls:';
$l = new RedisLock('job', ['servers' => $srv->dsn(), 'prefix' => $p, 'ttl' => 3000, 'keepalive' => true,
    'tls_ca' => "$dir/ca.pem", 'tls_cert' => "$dir/client.pem", 'tls_key' => "$dir/client.key"]);
var_dump($l->acquire());
usleep(4000000); /* past the ttl: only renewals keep it (a TLS handshake under valgrind takes a good part of a second) */
var_dump($srv->client()->cmd('GET', $p . 'job') === $l->token());
var_dump(RedisLock::stats()['keepalive_renewals'] >= 3, $l->release());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
