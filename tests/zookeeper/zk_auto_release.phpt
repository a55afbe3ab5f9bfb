--TEST--
ZooKeeperLock: a lock still held is released when its object is destroyed (unless auto_release is off); run() releases in all cases
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

echo "destroyed while held\n";
$l = new RedisLock\ZooKeeperLock('obj', $opts);
var_dump($l->acquire());
unset($l);
var_dump($zk->ephemerals());

echo "auto_release off: the node stays with the session\n";
$l = new RedisLock\ZooKeeperLock('kept', $opts + ['auto_release' => false]);
var_dump($l->acquire());
$token = $l->token();
unset($l);
var_dump(array_keys($zk->ephemerals()) === [$token]);

echo "run() returns what the callback returned and releases\n";
$l = new RedisLock\ZooKeeperLock('run', $opts);
var_dump($l->run(function () use ($l, $zk) {
    return [$l->isAcquired(), count($zk->queue('/redislock/run'))];
}));
var_dump($l->token(), $zk->queue('/redislock/run'));

echo "run() releases when the callback throws\n";
try {
    $l->run(function () {
        throw new LogicException('inside');
    });
} catch (LogicException $e) {
    echo $e->getMessage(), "\n";
}
var_dump($l->token(), $zk->queue('/redislock/run'));

echo "nested run() on one object\n";
try {
    $l->run(fn() => $l->run(fn() => 1));
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($zk->queue('/redislock/run'));
?>
--EXPECT--
destroyed while held
bool(true)
array(0) {
}
auto_release off: the node stays with the session
bool(true)
bool(true)
run() returns what the callback returned and releases
array(2) {
  [0]=>
  bool(true)
  [1]=>
  int(1)
}
NULL
array(0) {
}
run() releases when the callback throws
inside
NULL
array(0) {
}
nested run() on one object
Error: RedisLock\ZooKeeperLock::run() is already running on this object
array(0) {
}
