--TEST--
ZooKeeperLock: a wait that runs out returns false, deletes the waiter's node and its watch and leaves the queue as it was
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
$opts = ['hosts' => $zk->hosts(), 'connect_timeout' => RL_ZK_CONNECT];
$holder = new RedisLock\ZooKeeperLock('busy', $opts);
$waiter = new RedisLock\ZooKeeperLock('busy', $opts);
var_dump($holder->acquire());
var_dump($waiter->acquire(300));
var_dump($waiter->token(), $waiter->isAcquired());
var_dump($zk->queue('/redislock/busy') === [$holder->token()]);
echo "and no watch left behind\n";
var_dump($zk->watches());
echo "run() that cannot get the lock in time\n";
try {
    $waiter->run(fn() => 'never', 100);
} catch (RedisLock\ConflictException $e) {
    echo get_class($e), ' ', $e->getCode(), ': ', $e->getMessage(), "\n";
}
var_dump($zk->queue('/redislock/busy') === [$holder->token()]);
echo "after the release the waiter gets it at once\n";
var_dump($holder->release(), $waiter->acquire(), $waiter->release());
?>
--EXPECT--
bool(true)
bool(false)
NULL
bool(false)
bool(true)
and no watch left behind
array(0) {
}
run() that cannot get the lock in time
RedisLock\ConflictException 4: could not acquire the lock within 100 ms
bool(true)
after the release the waiter gets it at once
bool(true)
bool(true)
bool(true)
