--TEST--
TLS proxy: a server that takes the TCP connection but never answers the TLS handshake makes acquire() throw ConnectionException after connect_timeout ("TLS handshake timed out"), holding nothing; once the server shakes hands again the next operation works, and a stall of one server of three leaves a quorum's lock to the other two
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
require __DIR__ . '/../core.inc';
$p = 'rltest:tls_proxy_handshake_stall:';
$proxy = new RLProxy(tls: true);
ini_set('redislock.tls_ca', rl_tls_certs() . '/ca.pem');
$base = ['prefix' => $p, 'ttl' => 30000, 'read_timeout' => 5000];
$needle = 'TLS handshake timed out after 1000 ms';

$proxy->fault('stall');
$l = new RedisLock('job', ['servers' => $proxy->dsn(), 'connect_timeout' => 1000] + $base);
$t0 = hrtime(true);
rl_proxy_try('acquire', fn() => $l->acquire(), $needle, $proxy->port);
echo rl_proxy_ms($t0) >= 900 ? "waited for connect_timeout\n" : "gave up early\n";
var_dump($l->token(), $l->isAcquired(), rl_admin()->cmd('EXISTS', $p . 'job'));
var_dump($proxy->stats()['stalled']);

/* The server behaves again (one stall only): the next operation works. A
 * handshake can take over a second under valgrind: a generous
 * connect_timeout from here on. */
$n = new RedisLock('job', ['servers' => $proxy->dsn(), 'connect_timeout' => 5000] + $base);
var_dump($n->acquire(), rl_admin()->cmd('GET', $p . 'job') === $n->token(), $n->release());

/* One server of three stalls its handshake: the other two make the quorum,
 * within the operation's time. */
$a = new RLServer();
$b = new RLServer();
$proxy->fault('stall');
$q = new RedisLock('quorum', ['servers' => $proxy->dsn() . ',' . $a->dsn() . ',' . $b->dsn(), 'quorum_timeout' => 4000]
    + $base);
var_dump($q->acquire());
var_dump($a->client()->cmd('GET', $p . 'quorum') === $q->token(), $b->client()->cmd('GET', $p . 'quorum') === $q->token());
/* The stalled server (reached again once its one stall was over) holds
 * nothing, or our token. */
var_dump(in_array(rl_admin()->cmd('GET', $p . 'quorum'), [null, $q->token()], true));
var_dump($q->release());
var_dump($a->client()->cmd('EXISTS', $p . 'quorum'), $b->client()->cmd('EXISTS', $p . 'quorum'),
    rl_admin()->cmd('EXISTS', $p . 'quorum'));
$a->stop();
$b->stop();
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:tls_proxy_handshake_stall:');
?>
--EXPECT--
acquire: threw, mentions 'TLS handshake timed out after 1000 ms'
waited for connect_timeout
NULL
bool(false)
int(0)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(0)
int(0)
