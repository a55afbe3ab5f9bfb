--TEST--
Proxy: a reply announcing a 999999999-byte string, its bytes trickling in, makes the operation throw within read_timeout, and the process goes on
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_huge_bulk_reply:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 1000, 'ttl' => 30000];

$l = new RedisLock('job', $opts);
var_dump($l->acquire());

/* $999999999, then 512 bytes every 10 ms. */
foreach (['acquire' => fn() => (new RedisLock('other', $opts))->acquire(), 'isAcquired' => fn() => $l->isAcquired(),
          'release' => fn() => $l->release()] as $what => $fn) {
    $proxy->fault('huge_bulk');
    $t0 = hrtime(true);
    try {
        $r = $fn();
        echo "$what returned ", var_export($r, true), "\n";
    } catch (RedisLockException $e) {
        echo "$what: threw\n";
    }
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
rl_core_clean('rltest:proxy_huge_bulk_reply:');
?>
--EXPECT--
bool(true)
acquire: threw
gave up in time
isAcquired: threw
gave up in time
release: threw
gave up in time
bool(true)
bool(true)
