--TEST--
Proxy: replies that come late but within read_timeout are waited for: every operation answers as usual
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_delay_within_timeout:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 2000, 'ttl' => 30000];
$before = RedisLock::stats();

/* Every reply 200 ms late (the connection handshake is not delayed). */
$proxy->fault('delay 200');

/* Runs an operation; prints its result and whether it waited for the delay. */
function timed(string $what, callable $fn): void
{
    $t0 = hrtime(true);
    $r = $fn();
    $ms = rl_proxy_ms($t0);
    echo "$what: ", var_export($r, true), $ms >= 190 ? ", after the delay\n" : ", after $ms ms\n";
}

$l = new RedisLock('job', $opts);
timed('acquire', fn() => $l->acquire());
timed('extend', fn() => $l->extend());
timed('isAcquired', fn() => $l->isAcquired());
timed('release', fn() => $l->release());
var_dump(rl_admin()->cmd('EXISTS', $p . 'job'));

rl_admin()->cmd('SET', $p . 'held', 'someone-else', 'PX', '30000');
$h = new RedisLock('held', $opts);
timed('acquire of a held lock', fn() => $h->acquire(0));

$f = new RedisLock('fenced', $opts + ['fencing' => true]);
timed('fencing acquire', fn() => $f->acquire());
timed('release', fn() => $f->release());

$after = RedisLock::stats();
var_dump($proxy->stats()['accepted'], $after['errors'] - $before['errors']);
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_delay_within_timeout:');
?>
--EXPECT--
acquire: true, after the delay
extend: true, after the delay
isAcquired: true, after the delay
release: true, after the delay
int(0)
acquire of a held lock: false, after the delay
fencing acquire: true, after the delay
release: true, after the delay
int(1)
int(0)
