--TEST--
Proxy: an unsolicited :1 right behind release()'s reply is never taken as the answer to a later extend(): a lock taken over by someone else is never reported as extended
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_extra_reply_after_release:';
$other = str_repeat('0', 32);
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'ttl' => 30000, 'read_timeout' => 2000];

$a = new RedisLock('a', $opts);
$m = new RedisLock('m', $opts);
var_dump($a->acquire(), $m->acquire());
$accepted = $proxy->stats()['accepted'];

/* m's lease is taken over behind its back. */
rl_admin()->cmd('SET', $p . 'm', $other, 'PX', '30000');

/* release() gets its :1 with a second :1 behind it: true (the first reply
 * is the real one) or "unexpected data" are both right. */
$proxy->fault('extra :1');
try {
    $r = $a->release();
    echo $r === true ? "release: true or unexpected data\n" : "release returned " . var_export($r, true) . "\n";
} catch (RedisLockException $e) {
    echo str_contains($e->getMessage(), 'unexpected data') ? "release: true or unexpected data\n"
        : 'release threw: ' . str_replace((string) $proxy->port, 'PORT', $e->getMessage()) . "\n";
}
var_dump(rl_admin()->cmd('EXISTS', $p . 'a'));

/* The stray :1 must not answer m's extend: m is no longer the holder. */
try {
    $r = $m->extend();
    echo $r === false ? "extend: not ours\n" : "extend returned " . var_export($r, true) . "\n";
} catch (RedisLockException $e) {
    echo "extend: not ours\n";
}
var_dump(rl_admin()->cmd('GET', $p . 'm') === $other);
var_dump($proxy->stats()['accepted'] > $accepted);
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_extra_reply_after_release:');
?>
--EXPECT--
bool(true)
bool(true)
release: true or unexpected data
int(0)
extend: not ours
bool(true)
bool(true)
