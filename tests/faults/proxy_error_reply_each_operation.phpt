--TEST--
Proxy: an error reply in place of the server's answer (the command not run, as when a server refuses it) makes every operation throw RedisLockException with the server's text
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_error_reply_each_operation:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 2000, 'ttl' => 30000];
$needle = 'ERR injected';

/* The proxy answers the next command (of the given name) with
 * -ERR injected, without passing it on. */
function refused(RLProxy $proxy, string $what, callable $fn, string $cmd = ''): void
{
    global $needle;
    $proxy->fault(($cmd !== '' ? "cmd=$cmd " : '') . 'error ERR injected');
    rl_proxy_try($what, $fn, $needle, $proxy->port);
}

$free = new RedisLock('free', $opts);
refused($proxy, 'acquire', fn() => $free->acquire());
var_dump($free->token(), rl_admin()->cmd('EXISTS', $p . 'free'));
refused($proxy, 'acquire(1000)', fn() => $free->acquire(1000));
var_dump($free->token());

/* Waiting for a lock someone else holds: the first SET NX is answered, the
 * acquire script that marks the lock as waited for (sent in full, by EVAL,
 * the first time an object runs it) is refused. */
rl_admin()->cmd('SET', $p . 'held', 'someone-else', 'PX', '30000');
$held = new RedisLock('held', $opts);
refused($proxy, 'acquire(1000) of a held lock', fn() => $held->acquire(1000), 'EVAL');
var_dump($held->token(), rl_admin()->cmd('GET', $p . 'held'));

$f = new RedisLock('fenced', $opts + ['fencing' => true]);
refused($proxy, 'fencing acquire', fn() => $f->acquire());
var_dump($f->token(), $f->fence());

$l = new RedisLock('job', $opts);
var_dump($l->acquire());
refused($proxy, 'extend', fn() => $l->extend());
refused($proxy, 'isAcquired', fn() => $l->isAcquired());
refused($proxy, 'release', fn() => $l->release());
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_error_reply_each_operation:');
?>
--EXPECT--
acquire: threw, mentions 'ERR injected'
NULL
int(0)
acquire(1000): threw, mentions 'ERR injected'
NULL
acquire(1000) of a held lock: threw, mentions 'ERR injected'
NULL
string(12) "someone-else"
fencing acquire: threw, mentions 'ERR injected'
NULL
NULL
bool(true)
extend: threw, mentions 'ERR injected'
isAcquired: threw, mentions 'ERR injected'
release: threw, mentions 'ERR injected'
