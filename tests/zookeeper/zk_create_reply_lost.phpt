--TEST--
ZooKeeperLock: a create whose reply was lost (connection dropped) is found again by its guid when the server carried it out, made again when it did not: one node, held, nothing leaked
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../zookeeper.inc';
if ($why = rl_zk_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../zookeeper.inc';
$zk = new RLZooKeeper();
$proxy = new RLZooKeeperProxy($zk);
$proxy->control('lose_create times=2');

$opts = ['hosts' => $proxy->hosts(), 'connect_timeout' => RL_ZK_CONNECT, 'session_timeout' => 10000];
$lost = fn(int $n) => rl_zk_until(fn() => $proxy->stats()['lost'] === $n, 5000);

echo "the server created the node, the reply was lost\n";
/* The parents exist already: the create through the proxy succeeds on the server. */
$direct = new RedisLock\ZooKeeperLock('lost-reply', ['hosts' => $zk->hosts(), 'connect_timeout' => RL_ZK_CONNECT]);
var_dump($direct->acquire(), $direct->release());
$l = new RedisLock\ZooKeeperLock('lost-reply', $opts);
var_dump($l->acquire());
var_dump($lost(1));
var_dump($zk->queue('/redislock/lost-reply') === [$l->token()]);
var_dump($l->isAcquired(), $l->release());
var_dump($zk->ephemerals());

echo "the server refused the create (no parent yet), the reply was lost\n";
$f = new RedisLock\ZooKeeperLock('fresh', $opts);
var_dump($f->acquire());
var_dump($lost(2));
var_dump($zk->queue('/redislock/fresh') === [$f->token()]);
var_dump($f->release());
var_dump($zk->ephemerals());
$proxy->stop();
?>
--EXPECT--
the server created the node, the reply was lost
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
the server refused the create (no parent yet), the reply was lost
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
