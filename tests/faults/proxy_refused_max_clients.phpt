--TEST--
Proxy: a server at maxclients (it answers a new connection with -ERR max number of clients reached and closes it): the exception says so, and the next connection works
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_refused_max_clients:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 2000, 'ttl' => 30000];
$needle = 'max number of clients reached';

/* Every new connection is refused (a retry on a fresh connection of a
 * command that was never sent is refused as well). */
$proxy->fault('times=0 refuse ERR max number of clients reached');
$l = new RedisLock('job', $opts);
rl_proxy_try('acquire', fn() => $l->acquire(), $needle, $proxy->port);
var_dump($l->token(), rl_admin()->cmd('EXISTS', $p . 'job'));

$proxy->pass();
var_dump($l->acquire());

/* The connection is killed while the lock is held, and the new one release()
 * opens is refused. */
$proxy->control('drop');
$proxy->fault('times=0 refuse ERR max number of clients reached');
rl_proxy_try('release', fn() => $l->release(), $needle, $proxy->port);
var_dump($proxy->stats()['refused'] >= 2);

/* Connections are accepted again. */
$proxy->pass();
$n = new RedisLock('next', $opts);
var_dump($n->acquire(), $n->release());
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_refused_max_clients:');
?>
--EXPECT--
acquire: threw, mentions 'max number of clients reached'
NULL
int(0)
bool(true)
release: threw, mentions 'max number of clients reached'
bool(true)
bool(true)
bool(true)
