--TEST--
Proxy: a server that runs acquire()'s SET but is never heard from: acquire(0) throws within one read_timeout (its clean-up shares that deadline), and the token it may have left is removed once the server answers again, long before its ttl
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_silent_acquire_deadline:';
$key = $p . 'job';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 500, 'connect_timeout' => 500,
    'ttl' => 30000];

/* A warm connection, as a long-running worker has. */
$other = new RedisLock('other', $opts);
var_dump($other->acquire(), $other->release());

/* The server runs the SET NX (the key holds our token), the reply is lost. */
$proxy->fault('silent');
$l = new RedisLock('job', $opts);
$t0 = hrtime(true);
rl_proxy_try('acquire', fn() => $l->acquire(0), 'did not reply within 500 ms', $proxy->port);
$ms = rl_proxy_ms($t0);
echo $ms < 900 ? "gave up within the deadline\n" : "gave up after $ms ms\n";
var_dump($l->token(), $l->remaining());

/* The server answers again; the next operation of this process on it (on
 * another lock) leaves no key behind with the token the attempt wrote. */
$proxy->pass();
var_dump($other->acquire(), $other->release());
$gone = false;
for ($i = 0; $i < 100 && !$gone; $i++) {
    $gone = rl_admin()->cmd('EXISTS', $key) === 0;
    if (!$gone) {
        usleep(50000);
    }
}
echo $gone ? "the attempt's token is gone\n" : 'still there, pttl ' . rl_admin()->cmd('PTTL', $key) . "\n";
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_silent_acquire_deadline:');
?>
--EXPECT--
bool(true)
bool(true)
acquire: threw, mentions 'did not reply within 500 ms'
gave up within the deadline
NULL
int(0)
bool(true)
bool(true)
the attempt's token is gone
