--TEST--
ZooKeeperLock: a holder killed with SIGKILL keeps the lock until its session expires, then a waiter gets it
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
$opts = ['hosts' => $zk->hosts(), 'connect_timeout' => RL_ZK_CONNECT, 'session_timeout' => RL_ZK_SESSION];
$pid = pcntl_fork();
if ($pid === 0) {
    $l = new RedisLock\ZooKeeperLock('crash', $opts);
    $l->acquire();
    /* Dies holding the lock: no release, no session close. */
    rl_kill(getmypid(), SIGKILL);
    exit(1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wifsignaled($status) && pcntl_wtermsig($status) === SIGKILL);
$queue = $zk->queue('/redislock/crash');
var_dump(count($queue));

$l = new RedisLock\ZooKeeperLock('crash', $opts);
echo "still held by the dead process's session\n";
var_dump($l->acquire());
echo "a waiter gets it once that session expires\n";
var_dump($l->acquire(30000));
var_dump($zk->queue('/redislock/crash') === [$l->token()]);
var_dump($l->release());
?>
--EXPECT--
bool(true)
int(1)
still held by the dead process's session
bool(false)
a waiter gets it once that session expires
bool(true)
bool(true)
bool(true)
