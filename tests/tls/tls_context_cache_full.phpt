--TEST--
rediss://: once the process keeps as many TLS contexts as it can (16 distinct settings), connections made with kept settings still each hold a reference to the context: closing them all frees nothing twice
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../tls.inc';
$srv = new RLTlsServer();
$dir = rl_tls_certs();
$copies = RL_RUNDIR . '/tls-ca-copies';
@mkdir($copies);
/* A handshake can take over a second under valgrind: a generous connect_timeout. */
$base = ['persistent' => false, 'connect_timeout' => 5000];

/* 17 distinct settings (the same CA under 17 names): 16 contexts are kept. */
$failed = 0;
for ($i = 0; $i < 17; $i++) {
    copy("$dir/ca.pem", "$copies/ca-$i.pem");
    $l = new RedisLock("tls:full:$i", ['servers' => $srv->dsn(), 'tls_ca' => "$copies/ca-$i.pem"] + $base);
    $failed += !$l->acquire() || !$l->release();
}
var_dump($failed);

/* Kept settings, now found in the full table, by two connections at once
 * (two host names: two connections). */
$a = new RedisLock('tls:full:a', ['servers' => $srv->dsn('127.0.0.1'), 'tls_ca' => "$copies/ca-0.pem"] + $base);
$b = new RedisLock('tls:full:b', ['servers' => $srv->dsn('localhost'), 'tls_ca' => "$copies/ca-0.pem"] + $base);
var_dump($a->acquire(), $b->acquire(), $a->release(), $b->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
array_map('unlink', glob(RL_RUNDIR . '/tls-ca-copies/*') ?: []);
@rmdir(RL_RUNDIR . '/tls-ca-copies');
?>
--EXPECT--
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
