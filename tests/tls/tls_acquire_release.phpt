--TEST--
rediss://: acquire and release over TLS, by IP address and host name, verified against redislock.tls_ca; one persistent TLS connection serves many cycles
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../tls.inc';
$srv = new RLTlsServer();
ini_set('redislock.tls_ca', rl_tls_certs() . '/ca.pem');
$admin = $srv->client();
/* A handshake can take over a second under valgrind: a generous connect_timeout. */
$slow = ['connect_timeout' => 5000];

foreach (['127.0.0.1', 'localhost'] as $host) {
    $l = new RedisLock('tls:' . $host, ['servers' => $srv->dsn($host)] + $slow);
    var_dump($l->acquire());
    var_dump($admin->cmd('GET', 'tls:' . $host) === $l->token());
    var_dump($l->extend(), $l->isAcquired(), $l->release());
    var_dump($admin->cmd('EXISTS', 'tls:' . $host));
}

/* A second lock on the same server and settings: the same connection. */
$before = RedisLock::stats();
for ($i = 0; $i < 20; $i++) {
    $l = new RedisLock('tls:loop', ['servers' => $srv->dsn()] + $slow);
    if (!$l->acquire() || !$l->release()) {
        echo "cycle $i failed\n";
    }
}
$after = RedisLock::stats();
var_dump($after['connects'] - $before['connects'], $after['reconnects'] - $before['reconnects']);

/* Not persistent: a connection of its own, closed at request end. */
$l = new RedisLock('tls:np', ['servers' => $srv->dsn(), 'persistent' => false]);
var_dump($l->acquire(), $l->release());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(0)
int(0)
bool(true)
bool(true)
