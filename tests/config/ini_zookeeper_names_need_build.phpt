--TEST--
In a build without ZooKeeperLock, its redislock.zookeeper_* INI names are not called unknown: the warning says they need a build --with-zookeeper
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (class_exists('RedisLock\ZooKeeperLock')) die('skip built --with-zookeeper');
?>
--INI--
redislock.zookeeper_hosts=127.0.0.1:2181
redislock.zookeeper_host=127.0.0.1:2181
--FILE--
<?php
echo "running\n";
?>
--EXPECTF--

Warning: redislock: INI setting "redislock.zookeeper_hosts" is ignored: it needs a build --with-zookeeper in Unknown on line 0

Warning: redislock: unknown INI setting "redislock.zookeeper_host" (did you mean "redislock.zookeeper_hosts"?) in Unknown on line 0
running
