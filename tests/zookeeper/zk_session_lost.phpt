--TEST--
ZooKeeperLock: when the session is lost (server away longer than the session timeout, or a new server) every hold of it is lost: isAcquired() and release() false; the next acquire opens a new session
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
$opts = ['hosts' => $zk->hosts(), 'connect_timeout' => RL_ZK_CONNECT, 'session_timeout' => RL_ZK_SESSION];
$a = new RedisLock\ZooKeeperLock('lost-a', $opts);
$b = new RedisLock\ZooKeeperLock('lost-b', $opts);
var_dump($a->acquire(), $b->acquire());

echo "cut off for longer than the session timeout\n";
$zk->stop();
usleep((RL_ZK_SESSION + 500) * 1000);
var_dump($a->isAcquired(), $a->token(), $a->fence());
var_dump($b->release());

echo "a new session once the server is back (the old one's nodes go when it expires)\n";
$zk->start();
var_dump($a->acquire(15000), $b->acquire(15000));
$old = $zk->ephemerals();
var_dump(count($old), count(array_unique($old)));

echo "the server loses its data: the client learns its session expired\n";
$zk->stop();
exec('rm -rf ' . escapeshellarg($zk->dir . '/data') . ' && mkdir ' . escapeshellarg($zk->dir . '/data'));
$zk->start();
/* Nothing of the old session is on the new server: whatever the client
 * hears first, the hold is not ours. */
var_dump($a->isAcquired(), $b->release());
var_dump($a->acquire(), $zk->queue('/redislock/lost-a') === [$a->token()]);
var_dump($a->release());
?>
--EXPECT--
bool(true)
bool(true)
cut off for longer than the session timeout
bool(false)
NULL
NULL
bool(false)
a new session once the server is back (the old one's nodes go when it expires)
bool(true)
bool(true)
int(2)
int(1)
the server loses its data: the client learns its session expired
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
