--TEST--
Code typed against RedisLock\Lock calls extend() and remaining() on a RedisLock and on a ZooKeeperLock alike: both say how long the hold is known to be theirs and renew it while it is
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../zookeeper.inc';
if ($why = rl_zk_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../zookeeper.inc';

/* The documentation's long-job idiom: renew when the hold is short of what the next step needs. */
function stillOurs(RedisLock\Lock $lock, int $needMs): bool
{
    return $lock->remaining() >= $needMs || $lock->extend();
}

function work(RedisLock\Lock $lock): void
{
    echo get_class($lock), "\n";
    var_dump($lock->remaining(), $lock->extend());
    var_dump($lock->acquire());
    $left = $lock->remaining();
    var_dump($left > 0 && $left <= 10000);
    var_dump(stillOurs($lock, 1), stillOurs($lock, PHP_INT_MAX), $lock->extend(5000));
    var_dump($lock->remaining() > 0);
    try {
        $lock->extend(-1);
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    var_dump($lock->release(), $lock->extend(), $lock->remaining());
}

$zk = new RLZooKeeper();
work(new RedisLock('job', ['servers' => RL_DSN, 'prefix' => 'rltest:zk_lock_interface_typed:', 'ttl' => 10000]));
work(new RedisLock\ZooKeeperLock('job', ['hosts' => $zk->hosts(), 'connect_timeout' => RL_ZK_CONNECT,
                                         'session_timeout' => 10000]));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:zk_lock_interface_typed:');
?>
--EXPECT--
RedisLock
int(0)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
ValueError: RedisLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
bool(true)
bool(false)
int(0)
RedisLock\ZooKeeperLock
int(0)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
ValueError: RedisLock\ZooKeeperLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
bool(true)
bool(false)
int(0)
