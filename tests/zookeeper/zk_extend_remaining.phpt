--TEST--
ZooKeeperLock: remaining() is how long the session vouches for the hold (at most 90% of the session timeout after ZooKeeper's last answer), counting down; extend() asks ZooKeeper as isAcquired() does, renews it, and leaves the node as it was ($ttlMs checked, no other effect); a hold lost with its session: extend() false, remaining() 0
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
$lock = new RedisLock\ZooKeeperLock('extend', $opts);
$vouch = RL_ZK_SESSION * 9 / 10;

echo "not held\n";
var_dump($lock->remaining(), $lock->extend(), $lock->extend(5000));
foreach ([0, -1, PHP_INT_MAX] as $bad) {
    try {
        $lock->extend($bad);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}

echo "held: counts down from ZooKeeper's last answer\n";
var_dump($lock->acquire());
$node = $lock->token();
$r1 = $lock->remaining();
var_dump($r1 > 0 && $r1 <= $vouch);
usleep(600000);
$r2 = $lock->remaining();
var_dump($r2 < $r1);

echo "extend(): asks, renews, the node unchanged whatever the ttl\n";
var_dump($lock->extend(), $lock->remaining() > $r2);
var_dump($lock->extend(1), $lock->extend(60000), $lock->remaining() <= $vouch);
var_dump($lock->token() === $node, array_keys($zk->ephemerals()) === [$node]);

echo "the session lost: nothing vouches for the hold any more\n";
$zk->stop();
usleep((RL_ZK_SESSION + 500) * 1000);
var_dump($lock->remaining(), $lock->extend(), $lock->token());
?>
--EXPECT--
not held
int(0)
bool(false)
bool(false)
RedisLock\ZooKeeperLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
RedisLock\ZooKeeperLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
RedisLock\ZooKeeperLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
held: counts down from ZooKeeper's last answer
bool(true)
bool(true)
bool(true)
extend(): asks, renews, the node unchanged whatever the ttl
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
the session lost: nothing vouches for the hold any more
int(0)
bool(false)
NULL
