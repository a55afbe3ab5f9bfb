--TEST--
Proxy: a connection closed in the middle of a reply makes the operation throw, saying the connection was closed; the next operation reconnects and works
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_close_mid_reply:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 2000, 'ttl' => 30000];

$l = new RedisLock('job', $opts);
var_dump($l->acquire(), $l->release());
$accepted = $proxy->stats()['accepted'];

/* Half of SET's +OK, then the connection closes. */
$proxy->fault('close_mid');
rl_proxy_try('acquire', fn() => $l->acquire(), 'closed', $proxy->port);
var_dump($l->token());
var_dump($l->acquire(), rl_admin()->cmd('GET', $p . 'job') === $l->token());

/* Half of the release script's :1, then the connection closes. */
$proxy->fault('close_mid');
rl_proxy_try('release', fn() => $l->release(), 'closed', $proxy->port);
$proxy->pass();
$n = new RedisLock('next', $opts);
var_dump($n->acquire(), $n->extend(), $n->isAcquired(), $n->release());
var_dump($proxy->stats()['accepted'] > $accepted);
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_close_mid_reply:');
?>
--EXPECT--
bool(true)
bool(true)
acquire: threw, mentions 'closed'
NULL
bool(true)
bool(true)
release: threw, mentions 'closed'
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
