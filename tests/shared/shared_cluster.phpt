--TEST--
Shared holds on redis-cluster://: shares, a waiting writer woken by the last reader, a reader woken by the writer's release, promote and demote; every key of the name in the lock key's slot
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
$c = new RLCluster();
$o = ['servers' => $c->dsn(), 'prefix' => 'sh:', 'ttl' => 5000];
$r1 = new RedisLock('n', $o);
$r2 = new RedisLock('n', $o);
var_dump($r1->acquireRead(), $r2->acquireRead(), (new RedisLock('n', $o))->acquire());
$pid = pcntl_fork();
if ($pid === 0) {
    $w = new RedisLock('n', $o);
    exit($w->acquire(8000) && $w->acquireRead() && $w->isShared() && $w->release() ? 0 : 1);
}
usleep(300000);
var_dump($r1->release(), $r2->release());
pcntl_waitpid($pid, $st);
var_dump(pcntl_wexitstatus($st));
$w = new RedisLock('n', $o);
var_dump($w->acquire());
$pid = pcntl_fork();
if ($pid === 0) {
    $r = new RedisLock('n', $o);
    exit($r->acquireRead(8000) && $r->release() ? 0 : 1);
}
usleep(300000);
$keys = $c->keys('*sh:n*');
$apart = 0;
foreach ($keys as $key => $port) {
    $apart += $c->slot($key) !== $c->slot('sh:n') ? 1 : 0;
}
var_dump(count($keys) >= 2, $apart, $w->release());
pcntl_waitpid($pid, $st);
var_dump(pcntl_wexitstatus($st), $r1->acquireRead(), $r1->acquire(), $r1->isShared(), $r1->release());
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
int(0)
bool(true)
int(0)
bool(true)
bool(true)
bool(false)
bool(true)
