--TEST--
ZooKeeperLock: forked workers doing a non-atomic increment under the lock lose no update; a child never uses the session it inherited
--EXTENSIONS--
redislock
pcntl
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
$file = RL_RUNDIR . '/zk_mutual_exclusion_forked.' . getmypid();
file_put_contents($file, '0');

/* The parent opens its session before forking, and holds a lock of its own
 * throughout: the children must open sessions of their own, and must not end
 * the parent's. */
$mine = new RedisLock\ZooKeeperLock('parent', $opts);
var_dump($mine->acquire());

$workers = 4;
$rounds = 15;
$codes = rl_fork($workers, function () use ($opts, $file, $rounds) {
    $l = new RedisLock\ZooKeeperLock('counter', $opts);
    for ($i = 0; $i < $rounds; $i++) {
        if (!$l->acquire(60000)) {
            return 2;
        }
        $n = (int) file_get_contents($file);
        usleep(1000);
        file_put_contents($file, (string) ($n + 1));
        if (!$l->release()) {
            return 3;
        }
    }
    return 0;
});
var_dump($codes === array_fill(0, $workers, 0));
var_dump((int) file_get_contents($file) === $workers * $rounds);

echo "the parent's session and hold are intact\n";
var_dump($mine->isAcquired());
var_dump(array_keys($zk->ephemerals()) === [$mine->token()]);
var_dump($mine->release());
@unlink($file);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
the parent's session and hold are intact
bool(true)
bool(true)
bool(true)
