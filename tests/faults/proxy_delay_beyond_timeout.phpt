--TEST--
Proxy: replies later than read_timeout make every operation throw "did not reply within", and acquire() never reports true; once replies are on time again, locks work
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
require __DIR__ . '/../core.inc';
$p = 'rltest:proxy_delay_beyond_timeout:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 300, 'ttl' => 30000];
$needle = 'did not reply within 300 ms';

$held = new RedisLock('held', $opts);
var_dump($held->acquire());

/* Every reply 1.5 s late. */
$proxy->fault('delay 1500');
$l = new RedisLock('job', $opts);
$t0 = hrtime(true);
rl_proxy_try('acquire', fn() => $l->acquire(), $needle, $proxy->port);
$ms = rl_proxy_ms($t0);
echo $ms < 1500 ? "gave up before the reply came\n" : "took $ms ms\n";
var_dump($l->token(), $l->remaining());
rl_proxy_try('acquire(1000)', fn() => $l->acquire(1000), $needle, $proxy->port);
var_dump($l->token());
$f = new RedisLock('fenced', $opts + ['fencing' => true]);
rl_proxy_try('fencing acquire', fn() => $f->acquire(), $needle, $proxy->port);
var_dump($f->token());
rl_proxy_try('extend', fn() => $held->extend(), $needle, $proxy->port);
rl_proxy_try('isAcquired', fn() => $held->isAcquired(), $needle, $proxy->port);
rl_proxy_try('release', fn() => $held->release(), $needle, $proxy->port);

/* On time again: the late replies on the connections given up are never
 * taken for new ones. Whatever the late commands left behind is cleared
 * here (the attempts' own tokens may sit on the server until their ttl). */
$proxy->pass();
usleep(1600000);
rl_core_clean($p);
$n = new RedisLock('job', $opts);
var_dump($n->acquire(), rl_admin()->cmd('GET', $p . 'job') === $n->token(), $n->release());
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_delay_beyond_timeout:');
?>
--EXPECT--
bool(true)
acquire: threw, mentions 'did not reply within 300 ms'
gave up before the reply came
NULL
int(0)
acquire(1000): threw, mentions 'did not reply within 300 ms'
NULL
fencing acquire: threw, mentions 'did not reply within 300 ms'
NULL
extend: threw, mentions 'did not reply within 300 ms'
isAcquired: threw, mentions 'did not reply within 300 ms'
release: threw, mentions 'did not reply within 300 ms'
bool(true)
bool(true)
bool(true)
