--TEST--
ZooKeeperLock: a host name that does not resolve is named in the RedisLock\ConnectionException ("cannot resolve ZooKeeper host ...") when no host of the list resolves, and in the "not reachable" message when the others do not answer; a list with one name that does not resolve still works through the others
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
/* Only names under .invalid (RFC 6761: never resolve) and loopback. */
$free = '127.0.0.1:' . rl_free_port();
$cases = [
    'one name' => 'nohost.invalid:2181',
    'two names, a chroot' => 'a.invalid:2181,b.invalid:2182/locks',
    'a name and an address nobody listens on' => "nohost.invalid:2181,$free",
];
foreach ($cases as $what => $hosts) {
    $l = new RedisLock\ZooKeeperLock('job', ['hosts' => $hosts, 'connect_timeout' => 300]);
    try {
        var_dump($l->acquire());
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ' ', $e->getCode(), ': ', str_replace($free, 'FREE', $e->getMessage()), "\n";
    }
}

echo "a name that does not resolve beside a server\n";
$zk = new RLZooKeeper();
$l = new RedisLock\ZooKeeperLock('job', ['hosts' => 'nohost.invalid:2181,' . $zk->hosts(),
    'connect_timeout' => RL_ZK_CONNECT, 'session_timeout' => RL_ZK_SESSION]);
var_dump($l->acquire(), $l->release());
?>
--EXPECTF--
one name: RedisLock\ConnectionException 2: cannot resolve ZooKeeper host "nohost.invalid": %s
two names, a chroot: RedisLock\ConnectionException 2: cannot resolve ZooKeeper hosts "a.invalid", "b.invalid": %s
a name and an address nobody listens on: RedisLock\ConnectionException 2: ZooKeeper at nohost.invalid:2181,FREE not reachable within 300 ms (cannot resolve "nohost.invalid": %s)
a name that does not resolve beside a server
bool(true)
bool(true)
