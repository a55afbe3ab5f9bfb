--TEST--
ZooKeeperLock: acquire creates an ephemeral sequential node under /<root>/<name>, release deletes it; token() is its path, fence() its sequence number
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
$a = new RedisLock\ZooKeeperLock('job', $opts);
$b = new RedisLock\ZooKeeperLock('job', $opts);
var_dump($a instanceof RedisLock\Lock);
var_dump($a->token(), $a->fence(), $a->isAcquired());

echo "acquire\n";
var_dump($a->acquire());
var_dump(preg_match('~^/redislock/job/lock-[0-9a-f]{32}-\d{10}$~', $a->token()));
var_dump($a->fence() === (int) substr($a->token(), -10));
var_dump(array_keys($zk->ephemerals()) === [$a->token()]);
var_dump($a->isAcquired());
var_dump($a->acquire()); /* already ours */

echo "held elsewhere: one attempt fails and leaves no node\n";
var_dump($b->acquire(), $b->token(), $b->fence());
var_dump(array_keys($zk->ephemerals()) === [$a->token()]);

echo "release\n";
$fence = $a->fence();
var_dump($a->release(), $a->release(), $a->token(), $a->fence(), $a->isAcquired());
var_dump($zk->ephemerals());

echo "the next holder has a larger fence\n";
var_dump($b->acquire(), $b->fence() > $fence);
var_dump($b->release());

echo "another root, its parents created as needed\n";
$c = new RedisLock\ZooKeeperLock('job', $opts + ['root' => '/apps/one/locks']);
var_dump($c->acquire(), str_starts_with($c->token(), '/apps/one/locks/job/lock-'));
var_dump(count($zk->ephemerals()));
var_dump($c->release());
?>
--EXPECT--
bool(true)
NULL
NULL
bool(false)
acquire
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
held elsewhere: one attempt fails and leaves no node
bool(false)
NULL
NULL
bool(true)
release
bool(true)
bool(false)
NULL
NULL
bool(false)
array(0) {
}
the next holder has a larger fence
bool(true)
bool(true)
bool(true)
another root, its parents created as needed
bool(true)
bool(true)
int(1)
bool(true)
