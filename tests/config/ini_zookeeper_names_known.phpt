--TEST--
In a build with ZooKeeperLock, its redislock.zookeeper_* INI names are known: no warning at startup
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!class_exists('RedisLock\ZooKeeperLock')) die('skip built without --with-zookeeper');
?>
--INI--
redislock.zookeeper_hosts=127.0.0.1:2181
redislock.zookeeper_session_timeout=5000
--FILE--
<?php
echo "no warning\n";
var_dump(ini_get('redislock.zookeeper_hosts'));
?>
--EXPECT--
no warning
string(14) "127.0.0.1:2181"
