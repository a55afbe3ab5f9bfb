--TEST--
TLS proxy: replies cut into TLS records down to one byte a record, the records arriving together in one segment or one by one, give every operation its right answer on one connection all along: a reply spread over records, or records still buffered inside OpenSSL before the reply is whole, are never taken for a stray; and a stray cut into records behind a reply cut into records is never completed into a later command's answer
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
require __DIR__ . '/../core.inc';
$p = 'rltest:tls_proxy_split_records:';
$proxy = new RLProxy(tls: true);
ini_set('redislock.tls_ca', rl_tls_certs() . '/ca.pem');
/* A handshake can take over a second under valgrind: a generous connect_timeout. */
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'ttl' => 30000, 'connect_timeout' => 5000,
    'read_timeout' => 5000];
$before = RedisLock::stats();

/* From the first reply of the first connection on (its handshake's). */
$modes = [
    'split 1 0' => 'one byte a record, all records of a reply in one segment',
    'split 1 1' => 'one byte a record, one by one',
    'split 5 0' => 'up to 5 bytes a record, in one segment',
];
foreach ($modes as $mode => $what) {
    echo "-- $what\n";
    $proxy->fault($mode);
    $l = new RedisLock('job', $opts);
    echo 'acquire: ', var_export($l->acquire(), true), "\n";
    var_dump(rl_admin()->cmd('GET', $p . 'job') === $l->token());
    $o = new RedisLock('job', $opts);
    echo 'acquire(0) of a held lock: ', var_export($o->acquire(0), true), "\n";
    echo 'extend: ', var_export($l->extend(), true), "\n";
    echo 'isAcquired: ', var_export($l->isAcquired(), true), "\n";
    echo 'release: ', var_export($l->release(), true), "\n";
    var_dump(rl_admin()->cmd('EXISTS', $p . 'job'));

    /* Taken over: each answer is the server's 0, spread over records. */
    $t = new RedisLock('taken', $opts);
    $t->acquire();
    rl_admin()->cmd('SET', $p . 'taken', str_repeat('0', 32), 'PX', '30000');
    echo 'extend of a lock taken over: ', var_export($t->extend(), true), "\n";
    echo 'release of a lock taken over: ', var_export($t->release(), true), "\n";
    rl_core_clean($p);
}

$s = $proxy->stats();
$after = RedisLock::stats();
/* One connection all along: no reply was mistaken for a stray. */
var_dump($s['accepted'], $after['reconnects'] - $before['reconnects'], $after['errors'] - $before['errors']);

/* One byte a record, 100 ms apart: b's release is answered :1, and a stray
 * :1 follows, its first record with the reply's last. a's lock is taken
 * over and released meanwhile: the stray, once whole, must not answer. */
echo "-- a stray cut into records behind a reply cut into records\n";
/* The scripts: one reply a release. (A native release is two commands in one
 * write, and RESP cannot tell a stray between their replies from the
 * second's: the stray the proxy puts behind the first reply would be read
 * as it, and the second's taken for the stray.) */
$a = new RedisLock('a', $opts + ['native_commands' => false]);
$b = new RedisLock('b', $opts + ['native_commands' => false]);
$proxy->pass();
var_dump($a->acquire(), $b->acquire());
rl_admin()->cmd('SET', $p . 'a', str_repeat('0', 32), 'PX', '30000');
$proxy->fault('split 1 100');
$proxy->fault('extra :1 apart');
try {
    $r = $b->release();
    echo $r === true ? "b: released or unknown\n" : 'b: returned ' . var_export($r, true) . "\n";
} catch (RedisLock\ConnectionException $e) {
    echo "b: released or unknown\n";
}
/* The replies from now on (a new connection's handshake, with HELLO's
 * 200-odd bytes) one byte a record 1 ms apart; the stray already on its way
 * keeps its 100 ms. */
$proxy->fault('split 1 1');
try {
    echo 'release of a lock taken over: ', var_export($a->release(), true), "\n";
} catch (RedisLock\ConnectionException $e) {
    echo "release of a lock taken over: ConnectionException\n";
}
var_dump(rl_admin()->cmd('GET', $p . 'a') === str_repeat('0', 32));
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:tls_proxy_split_records:');
?>
--EXPECT--
-- one byte a record, all records of a reply in one segment
acquire: true
bool(true)
acquire(0) of a held lock: false
extend: true
isAcquired: true
release: true
int(0)
extend of a lock taken over: false
release of a lock taken over: false
-- one byte a record, one by one
acquire: true
bool(true)
acquire(0) of a held lock: false
extend: true
isAcquired: true
release: true
int(0)
extend of a lock taken over: false
release of a lock taken over: false
-- up to 5 bytes a record, in one segment
acquire: true
bool(true)
acquire(0) of a held lock: false
extend: true
isAcquired: true
release: true
int(0)
extend of a lock taken over: false
release of a lock taken over: false
int(1)
int(0)
int(0)
-- a stray cut into records behind a reply cut into records
bool(true)
bool(true)
b: released or unknown
release of a lock taken over: false
bool(true)
