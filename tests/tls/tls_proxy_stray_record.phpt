--TEST--
TLS proxy: a stray :1 in a TLS record of its own right behind a reply (one recv() takes both, the second stays inside OpenSSL) is never taken as a later command's answer: the release of a lock taken over is never reported true; nor is a stray that comes later, while the connection is idle
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
require __DIR__ . '/../core.inc';
$p = 'rltest:tls_proxy_stray_record:';
$other = str_repeat('0', 32);
$proxy = new RLProxy(tls: true);
ini_set('redislock.tls_ca', rl_tls_certs() . '/ca.pem');
/* A handshake can take over a second under valgrind: a generous connect_timeout. */
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'ttl' => 30000, 'connect_timeout' => 5000,
    'read_timeout' => 5000];

/* Prints how an operation ended: what it returned, or that it threw
 * ConnectionException (the outcome is unknown: right, never success). */
function outcome(string $what, callable $fn): void
{
    try {
        echo "$what: returned ", var_export($fn(), true), "\n";
    } catch (RedisLock\ConnectionException $e) {
        echo "$what: ConnectionException\n";
    }
}

foreach (['right behind the reply' => 'extra :1 apart', 'later, while idle' => 'extra :1 after=300'] as $when => $fault) {
    echo "-- stray $when\n";
    $a = new RedisLock('a', $opts);
    $b = new RedisLock('b', $opts);
    var_dump($a->acquire());
    /* a's lease is taken over behind its back. */
    rl_admin()->cmd('SET', $p . 'a', $other, 'PX', '30000');

    /* b's acquire gets its reply with a stray :1 behind it: true (the first
     * reply is the real one) or an unknown outcome are both right. */
    $proxy->fault($fault);
    try {
        $r = $b->acquire();
        echo $r === true ? "b: acquired or unknown\n" : 'b: returned ' . var_export($r, true) . "\n";
    } catch (RedisLock\ConnectionException $e) {
        echo "b: acquired or unknown\n";
    }
    usleep(500000); /* the late stray has come */

    /* The stray must not answer a's release: the server says 0. */
    outcome('release of a lock taken over', fn() => $a->release());
    var_dump(rl_admin()->cmd('GET', $p . 'a') === $other);
    rl_core_clean($p);
}

/* The connection that carried a stray was closed; the next works. */
$proxy->pass();
$n = new RedisLock('n', $opts);
var_dump($n->acquire(), rl_admin()->cmd('GET', $p . 'n') === $n->token(), $n->release());
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:tls_proxy_stray_record:');
?>
--EXPECT--
-- stray right behind the reply
bool(true)
b: acquired or unknown
release of a lock taken over: returned false
bool(true)
-- stray later, while idle
bool(true)
b: acquired or unknown
release of a lock taken over: returned false
bool(true)
bool(true)
bool(true)
bool(true)
