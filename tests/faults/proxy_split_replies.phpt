--TEST--
Proxy: replies that arrive one byte at a time (partial reads everywhere, the connection handshake included) change nothing: every operation answers as usual
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_split_replies:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 5000, 'ttl' => 30000];
$before = RedisLock::stats();

/* From the first byte of the first connection on: 1 byte a write, 1 ms apart. */
$proxy->fault('split 1 1');

$l = new RedisLock('job', $opts);
echo "acquire: ", var_export($l->acquire(), true), "\n";
var_dump(rl_admin()->cmd('GET', $p . 'job') === $l->token());
echo "extend: ", var_export($l->extend(), true), "\n";
echo "isAcquired: ", var_export($l->isAcquired(), true), "\n";
echo "release: ", var_export($l->release(), true), "\n";
var_dump(rl_admin()->cmd('EXISTS', $p . 'job'));

/* A lock someone else holds: a nil reply, then the wait (the acquire
 * script's array reply, the BLPOP's, the SET's) until its lease ends. */
rl_admin()->cmd('SET', $p . 'held', 'someone-else', 'PX', '400');
$h = new RedisLock('held', $opts);
echo "acquire(0) of a held lock: ", var_export($h->acquire(0), true), "\n";
echo "acquire(5000) of a held lock: ", var_export($h->acquire(5000), true), "\n";
var_dump(rl_admin()->cmd('GET', $p . 'held') === $h->token());
echo "release: ", var_export($h->release(), true), "\n";

$f = new RedisLock('fenced', $opts + ['fencing' => true]);
echo "fencing acquire: ", var_export($f->acquire(), true), "\n";
var_dump(is_int($f->fence()) && $f->fence() > 0);
$f2 = new RedisLock('fenced', $opts + ['fencing' => true]);
echo "fencing acquire of a held lock: ", var_export($f2->acquire(0), true), "\n";
echo "release: ", var_export($f->release(), true), "\n";

$s = $proxy->stats();
$after = RedisLock::stats();
/* One connection all along, no errors. */
var_dump($s['accepted'], $after['errors'] - $before['errors']);
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_split_replies:');
?>
--EXPECT--
acquire: true
bool(true)
extend: true
isAcquired: true
release: true
int(0)
acquire(0) of a held lock: false
acquire(5000) of a held lock: true
bool(true)
release: true
fencing acquire: true
bool(true)
fencing acquire of a held lock: false
release: true
int(1)
int(0)
