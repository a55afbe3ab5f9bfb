--TEST--
Proxy: with no fault set, every lock operation through tests/proxy.php works as against the server itself (the harness of the proxy_* tests)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_pass_through:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 5000];

$l = new RedisLock('job', $opts);
var_dump($l->acquire());
var_dump(rl_admin()->cmd('GET', $p . 'job') === $l->token());
var_dump($l->extend(), $l->isAcquired(), $l->release());
var_dump(rl_admin()->cmd('EXISTS', $p . 'job'));

$f = new RedisLock('fenced', $opts + ['fencing' => true]);
var_dump($f->acquire(), is_int($f->fence()), $f->release());

/* A wait (the BLPOP pipelined with the next attempt) for a holder whose
 * lease ends in 300 ms. */
rl_admin()->cmd('SET', $p . 'waited', 'someone-else', 'PX', '300');
$w = new RedisLock('waited', $opts);
var_dump($w->acquire(0), $w->acquire(5000), $w->release());

$s = $proxy->stats();
echo "connections accepted: {$s['accepted']}, open: {$s['open']}\n";
var_dump($s['by_command']['CLIENT'], $s['by_command']['SET'] >= 2, $s['by_command']['BLPOP'] >= 1);
var_dump($s['replies'] === $s['commands'], $s['faulted'], $s['swallowed'], $s['intercepted']);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_pass_through:');
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
bool(false)
bool(true)
bool(true)
connections accepted: 1, open: 1
int(1)
bool(true)
bool(true)
bool(true)
int(0)
int(0)
int(0)
