--TEST--
A quorum list mixing rediss:// and redis:// takes the lock on all three; a frozen TLS member (its handshake never answered) costs the quorum_timeout and the other two still make the quorum
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../tls.inc';
$dir = rl_tls_certs();
$a = new RLTlsServer();
$b = new RLTlsServer();
ini_set('redislock.tls_ca', "$dir/ca.pem");
$servers = $a->dsn() . ',' . RL_DSN . ',' . $b->dsn('localhost');
$p = 'rltest:tls_quorum_mixed:';

/* Timeouts generous for handshakes under valgrind: a quorum lock waits at
 * most the least of read_timeout and quorum_timeout for all of it. */
$slow = ['connect_timeout' => 4000, 'read_timeout' => 4000, 'quorum_timeout' => 4000];
$l = new RedisLock('k', ['servers' => $servers, 'prefix' => $p] + $slow);
var_dump($l->acquire());
var_dump($a->client()->cmd('GET', "{$p}k") === $l->token(), rl_admin()->cmd('GET', "{$p}k") === $l->token(),
         $b->client()->cmd('GET', "{$p}k") === $l->token());
var_dump($l->release());

/* New connections (not persistent) to a frozen TLS server: its TCP connect
 * succeeds (the kernel accepts), its handshake never completes. */
$b->server->freeze();
$l = new RedisLock('k', ['servers' => $servers, 'prefix' => $p, 'persistent' => false, 'quorum_timeout' => 2000] + $slow);
var_dump($l->acquire());
var_dump($l->release());
$b->server->thaw();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:tls_quorum_mixed:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
