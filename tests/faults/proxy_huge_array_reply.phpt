--TEST--
Proxy: a reply announcing an array of 999999999 elements is refused at once as too large (nothing waits for or allocates the elements), and the process goes on
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_huge_array_reply:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 1000, 'ttl' => 30000];

$l = new RedisLock('job', $opts);
var_dump($l->acquire(), $l->release());

/* *999999999, then one :1 element every 10 ms. */
foreach (['acquire' => fn() => $l->acquire(), 'fencing acquire' => fn() => (new RedisLock('fenced', $opts + ['fencing' => true]))->acquire()] as $what => $fn) {
    $proxy->fault('huge_array');
    $t0 = hrtime(true);
    rl_proxy_try($what, $fn, 'too large', $proxy->port);
    $ms = rl_proxy_ms($t0);
    echo $ms < 1300 ? "gave up in time\n" : "gave up after $ms ms\n";
}

$proxy->pass();
$n = new RedisLock('next', $opts);
var_dump($n->acquire(), $n->release());
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_huge_array_reply:');
?>
--EXPECT--
bool(true)
bool(true)
acquire: threw, mentions 'too large'
gave up in time
fencing acquire: threw, mentions 'too large'
gave up in time
bool(true)
bool(true)
