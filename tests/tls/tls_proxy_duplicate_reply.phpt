--TEST--
TLS proxy: a reply sent twice, the copy in a TLS record of its own right behind it, is never the answer to a later command: release() of a lock taken over says false, extend() of one says false, never a copy's true
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
require __DIR__ . '/../core.inc';
$p = 'rltest:tls_proxy_duplicate_reply:';
$other = str_repeat('0', 32);
$proxy = new RLProxy(tls: true);
ini_set('redislock.tls_ca', rl_tls_certs() . '/ca.pem');
/* A handshake can take over a second under valgrind: a generous connect_timeout. */
/* The scripts, on every server: the fault copies one reply behind a command of one reply. A
 * native release (compare-and-delete with the waiters' marker behind it) has two replies in one
 * write, where a copy of the first is read as the second: the stream is then out of step until a
 * reply of the wrong type shows it, which throws "unexpected reply" (never success) rather than
 * the false this test pins. */
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'ttl' => 30000, 'connect_timeout' => 5000,
    'read_timeout' => 5000, 'native_commands' => false];

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

/* One cycle first, so the scripts are loaded: the copy then hits the
 * script's own answer, not a NOSCRIPT. */
$w = new RedisLock('warm', $opts);
var_dump($w->acquire(), $w->extend(), $w->release());

$later = ['release' => fn(RedisLock $l) => $l->release(), 'extend' => fn(RedisLock $l) => $l->extend()];
foreach ($later as $name => $op) {
    echo "-- then $name\n";
    $a = new RedisLock('a', $opts);
    $m = new RedisLock('m', $opts);
    var_dump($a->acquire(), $m->acquire());
    /* m's lease is taken over behind its back. */
    rl_admin()->cmd('SET', $p . 'm', $other, 'PX', '30000');

    /* a's release is answered :1, twice: true (the first is the real one)
     * or an unknown outcome are both right. */
    $proxy->fault('twice');
    try {
        $r = $a->release();
        echo $r === true ? "a: released or unknown\n" : 'a: returned ' . var_export($r, true) . "\n";
    } catch (RedisLock\ConnectionException $e) {
        echo "a: released or unknown\n";
    }
    var_dump(rl_admin()->cmd('EXISTS', $p . 'a'));

    /* The copy must not answer m's command: m is no longer the holder. */
    outcome("$name of a lock taken over", fn() => $op($m));
    var_dump(rl_admin()->cmd('GET', $p . 'm') === $other);
    rl_core_clean($p);
}
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:tls_proxy_duplicate_reply:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
-- then release
bool(true)
bool(true)
a: released or unknown
int(0)
release of a lock taken over: returned false
bool(true)
-- then extend
bool(true)
bool(true)
a: released or unknown
int(0)
extend of a lock taken over: returned false
bool(true)
