--TEST--
TLS proxy: a reply's record held back past read_timeout (the whole reply, or its last record after the first came) makes the operation throw ConnectionException, an unknown outcome, never success; the late record is never the answer to a later command, and once records come on time locks work. A stray record behind a reply whose tail is held back (its start buffered inside OpenSSL) is never completed into a later command's answer
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
require __DIR__ . '/../core.inc';
$p = 'rltest:tls_proxy_delayed_record:';
$proxy = new RLProxy(tls: true);
ini_set('redislock.tls_ca', rl_tls_certs() . '/ca.pem');
/* A handshake can take over a second under valgrind: a generous connect_timeout. */
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'ttl' => 30000, 'connect_timeout' => 5000,
    'read_timeout' => 1000];
$needle = 'did not reply within 1000 ms';

$faults = [
    'delay 2500' => 'the whole reply 2.5 s late',
    'split 2 2500' => 'its first record on time, the next 2.5 s late',
];
foreach ($faults as $fault => $what) {
    echo "-- $what\n";
    $held = new RedisLock('held', $opts);
    $other = new RedisLock('other', $opts);
    $later = new RedisLock('later', $opts);
    var_dump($held->acquire(), $other->acquire(), $later->acquire());

    $proxy->fault($fault);
    $l = new RedisLock('job', $opts);
    rl_proxy_try('acquire', fn() => $l->acquire(), $needle, $proxy->port);
    var_dump($l->token());
    rl_proxy_try('extend', fn() => $held->extend(), $needle, $proxy->port);
    /* The release ran on the server: not known to the caller, never told
     * as done. */
    rl_proxy_try('release', fn() => $held->release(), $needle, $proxy->port);

    /* On time again. other and later are taken over: the late records (a
     * release's 1 among them) must not answer their releases, before or
     * after they came. */
    $proxy->pass();
    foreach (['other', 'later'] as $k) {
        rl_admin()->cmd('SET', $p . $k, str_repeat('0', 32), 'PX', '30000');
    }
    echo 'release of a lock taken over: ', var_export($other->release(), true), "\n";
    usleep(2700000); /* every late record has come */
    echo 'release of a lock taken over, late records in: ', var_export($later->release(), true), "\n";
    rl_core_clean($p);
    $n = new RedisLock('job', $opts);
    var_dump($n->acquire(), rl_admin()->cmd('GET', $p . 'job') === $n->token(), $n->release());
}

/* A stray :1 right behind b's reply, its record torn: the first bytes come
 * with the reply, the rest 1.5 s later, ahead of the next reply. A release
 * sent meanwhile must not be answered by the stray once it is whole. */
echo "-- a stray record behind a reply, its tail 1.5 s late\n";
$slow = ['read_timeout' => 5000] + $opts;
$a = new RedisLock('a', $slow);
$b = new RedisLock('b', $slow);
var_dump($a->acquire());
rl_admin()->cmd('SET', $p . 'a', str_repeat('0', 32), 'PX', '30000');
$proxy->fault('extra :1 torn=1500');
try {
    $r = $b->acquire();
    echo $r === true ? "b: acquired or unknown\n" : 'b: returned ' . var_export($r, true) . "\n";
} catch (RedisLock\ConnectionException $e) {
    echo "b: acquired or unknown\n";
}
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
rl_core_clean('rltest:tls_proxy_delayed_record:');
?>
--EXPECT--
-- the whole reply 2.5 s late
bool(true)
bool(true)
bool(true)
acquire: threw, mentions 'did not reply within 1000 ms'
NULL
extend: threw, mentions 'did not reply within 1000 ms'
release: threw, mentions 'did not reply within 1000 ms'
release of a lock taken over: false
release of a lock taken over, late records in: false
bool(true)
bool(true)
bool(true)
-- its first record on time, the next 2.5 s late
bool(true)
bool(true)
bool(true)
acquire: threw, mentions 'did not reply within 1000 ms'
NULL
extend: threw, mentions 'did not reply within 1000 ms'
release: threw, mentions 'did not reply within 1000 ms'
release of a lock taken over: false
release of a lock taken over, late records in: false
bool(true)
bool(true)
bool(true)
-- a stray record behind a reply, its tail 1.5 s late
bool(true)
b: acquired or unknown
release of a lock taken over: false
bool(true)
