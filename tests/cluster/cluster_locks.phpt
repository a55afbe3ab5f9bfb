--TEST--
redis-cluster://: locks over many slots of three masters, each lock's keys (fence counter, waiters, fair queue) in its own slot; waiting, fair mode and fencing work; nothing is left behind
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
$c = new RLCluster();
$opts = ['servers' => $c->dsn(), 'prefix' => 'cl:'];

/* 40 locks, fencing on: every key of each lock sits in the lock key's slot. */
$locks = [];
for ($i = 0; $i < 40; $i++) {
    $locks[$i] = new RedisLock("k$i", $opts + ['fencing' => true]);
    if (!$locks[$i]->acquire() || $locks[$i]->fence() < 1) {
        echo "lock $i not granted\n";
    }
}
$keys = $c->keys('*cl:k*');
$masters = [];
$apart = 0;
foreach ($keys as $key => $port) {
    preg_match('/cl:k(\d+)/', $key, $m);
    $masters[$port] = true;
    $apart += $c->slot($key) !== $c->slot("cl:k{$m[1]}") ? 1 : 0;
}
var_dump(count($keys) >= 80, count($masters), $apart);
foreach ($locks as $i => $l) {
    if (!$l->release()) {
        echo "lock $i not released\n";
    }
}

/* Waiting: a forked holder releases after 300 ms; the waiter is woken. */
foreach ([false, true] as $fair) {
    $name = $fair ? 'fair' : 'wait';
    $ready = RL_RUNDIR . "/cluster-ready-$name-" . getmypid();
    $pid = pcntl_fork();
    if ($pid === 0) {
        $h = new RedisLock($name, $opts + ['fair' => $fair]);
        $h->acquire();
        touch($ready);
        usleep(300000);
        $h->release();
        exit(0);
    }
    for ($i = 0; $i < 500 && !file_exists($ready); $i++) {
        usleep(10000);
    }
    $w = new RedisLock($name, $opts + ['fair' => $fair]);
    var_dump($w->acquire(5000), $w->release());
    pcntl_waitpid($pid, $status);
    @unlink($ready);
}

/* Nothing of the locks is left that does not expire, but the fence counters. */
$forever = [];
foreach ($c->keys('*cl:*') as $key => $port) {
    if (!str_ends_with($key, ':redislock-fence') && $c->client($port)->cmd('PTTL', $key) < 0) {
        $forever[] = $key;
    }
}
var_dump($forever);
?>
--EXPECT--
bool(true)
int(3)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
