--TEST--
Proxy: a reply of a type the command cannot have (:1 for SET, +OK for a script, :1 for GET) makes every operation throw "unexpected reply", and acquire() never reports true
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_wrong_type_reply:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 2000, 'ttl' => 30000];
$needle = 'unexpected reply';

/* The next reply (+OK or nil for SET, an array for the acquire script, an
 * integer for release and extend, a string for GET) is swapped for one of
 * another type: :1 for a status, nil or string, +OK for the others. */
function wrong(RLProxy $proxy, string $what, callable $fn): void
{
    global $needle;
    $proxy->fault('wrongtype');
    rl_proxy_try($what, $fn, $needle, $proxy->port);
}

$free = new RedisLock('free', $opts);
wrong($proxy, 'acquire (+OK swapped)', fn() => $free->acquire());
var_dump($free->token());

/* A lock held by someone else: SET NX says nil, the client gets :1. */
rl_admin()->cmd('SET', $p . 'held', 'someone-else', 'PX', '30000');
$held = new RedisLock('held', $opts);
wrong($proxy, 'acquire of a held lock (nil swapped)', fn() => $held->acquire());
var_dump($held->token());
var_dump(rl_admin()->cmd('GET', $p . 'held'));
/* A status that is not OK is not a grant either. */
$proxy->fault('wrongtype +QUEUED');
rl_proxy_try('acquire of a held lock (nil swapped for +QUEUED)', fn() => $held->acquire(), $needle, $proxy->port);
var_dump($held->token());
var_dump(rl_admin()->cmd('GET', $p . 'held'));

$f = new RedisLock('fenced', $opts + ['fencing' => true]);
wrong($proxy, 'fencing acquire (array swapped)', fn() => $f->acquire());
var_dump($f->token(), $f->fence());

/* A hold taken while the proxy passes replies faithfully. */
$l = new RedisLock('job', $opts);
var_dump($l->acquire());
wrong($proxy, 'extend', fn() => $l->extend());
wrong($proxy, 'isAcquired', fn() => $l->isAcquired());
wrong($proxy, 'release', fn() => $l->release());
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_wrong_type_reply:');
?>
--EXPECT--
acquire (+OK swapped): threw, mentions 'unexpected reply'
NULL
acquire of a held lock (nil swapped): threw, mentions 'unexpected reply'
NULL
string(12) "someone-else"
acquire of a held lock (nil swapped for +QUEUED): threw, mentions 'unexpected reply'
NULL
string(12) "someone-else"
fencing acquire (array swapped): threw, mentions 'unexpected reply'
NULL
NULL
bool(true)
extend: threw, mentions 'unexpected reply'
isAcquired: threw, mentions 'unexpected reply'
release: threw, mentions 'unexpected reply'
