--TEST--
ZooKeeperLock: a server restart within the session timeout keeps the session and its hold; a server down throws ConnectionException within connect_timeout
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
/* A long session: the restart below takes well under it. */
$opts = ['hosts' => $zk->hosts(), 'connect_timeout' => RL_ZK_CONNECT, 'session_timeout' => 10000];
$l = new RedisLock\ZooKeeperLock('restart', $opts);
var_dump($l->acquire());
$token = $l->token();

echo "restart: the session and its node survive (the server restores them from its data)\n";
$zk->restart();
var_dump($l->isAcquired(), $l->token() === $token);
$other = new RedisLock\ZooKeeperLock('restart', $opts);
var_dump($other->acquire());
var_dump($l->release());
var_dump($other->acquire(), $other->release());

echo "server down: ConnectionException\n";
$zk->stop();
$down = new RedisLock\ZooKeeperLock('restart', ['connect_timeout' => 500] + $opts);
try {
    $down->acquire();
    echo "no exception\n";
} catch (RedisLock\ConnectionException $e) {
    echo get_class($e), ' ', $e->getCode(), "\n";
}
echo "back up: the next acquire works\n";
$zk->start();
/* With the usual connect_timeout: the client's reconnect cycle after the
 * outage may take longer than the 500 ms the outage was measured with. */
$up = new RedisLock\ZooKeeperLock('restart', $opts);
var_dump($up->acquire(), $up->release());
?>
--EXPECT--
bool(true)
restart: the session and its node survive (the server restores them from its data)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
server down: ConnectionException
RedisLock\ConnectionException 2
back up: the next acquire works
bool(true)
bool(true)
