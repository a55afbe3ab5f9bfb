--TEST--
ZooKeeperLock: ZooKeeper unreachable: acquire() and run() throw RedisLock\ConnectionException; nothing held, release() false
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
$hosts = '127.0.0.1:' . rl_free_port();
$l = new RedisLock\ZooKeeperLock('job', ['hosts' => $hosts, 'connect_timeout' => 300]);
foreach (['acquire' => fn() => $l->acquire(), 'acquire with a wait' => fn() => $l->acquire(200),
          'run' => fn() => $l->run(fn() => 'not called')] as $what => $fn) {
    try {
        $fn();
        echo "$what: no exception\n";
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ' ', $e->getCode(), ': ', str_replace($hosts, 'HOSTS', $e->getMessage()), "\n";
    }
}
var_dump($l->isAcquired(), $l->release(), $l->token());
?>
--EXPECT--
acquire: RedisLock\ConnectionException 2: ZooKeeper at HOSTS not reachable within 300 ms
acquire with a wait: RedisLock\ConnectionException 2: ZooKeeper at HOSTS not reachable within 300 ms
run: RedisLock\ConnectionException 2: ZooKeeper at HOSTS not reachable within 300 ms
bool(false)
bool(false)
NULL
