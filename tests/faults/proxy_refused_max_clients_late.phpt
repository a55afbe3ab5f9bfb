--TEST--
Proxy: a server at maxclients whose refusal the client reads as the reply to its handshake, the connection then reset under its next command: the exception still says "max number of clients reached"
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_refused_max_clients_late:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 2000, 'ttl' => 30000];
$needle = 'max number of clients reached';

/* Every new connection: the proxy waits for the client's handshake, answers
 * it with the refusal, and resets the connection when the client sends
 * more (a real server writes its refusal and closes at once; whether the
 * client reads it before the reset comes is a race, decided here). */
$proxy->fault('times=0 refuse_late ERR max number of clients reached');
$l = new RedisLock('job', $opts);
rl_proxy_try('acquire', fn() => $l->acquire(), $needle, $proxy->port);
var_dump($l->token(), rl_admin()->cmd('EXISTS', $p . 'job'));

$proxy->pass();
var_dump($l->acquire());

/* The connection is killed while the lock is held; release() reconnects. */
$proxy->control('drop');
$proxy->fault('times=0 refuse_late ERR max number of clients reached');
rl_proxy_try('release', fn() => $l->release(), $needle, $proxy->port);
var_dump($proxy->stats()['refused'] >= 2);

$proxy->pass();
$n = new RedisLock('next', $opts);
var_dump($n->acquire(), $n->release());
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_refused_max_clients_late:');
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
