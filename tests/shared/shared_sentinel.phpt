--TEST--
Shared holds on redis-sentinel://: shares on the master found through the Sentinels, a waiting writer woken by the last reader, and after SENTINEL FAILOVER new shares go to the new master
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';
$s = new RLSentinels();
$old = $s->masterPort();
$o = ['servers' => $s->dsn(), 'ttl' => 5000];
$r1 = new RedisLock('sentinel:sh', $o);
$r2 = new RedisLock('sentinel:sh', $o);
var_dump($r1->acquireRead(), $r2->acquireRead(), $s->node($old)->cmd('ZCARD', 'sentinel:sh:redislock-readers'));
$pid = pcntl_fork();
if ($pid === 0) {
    $w = new RedisLock('sentinel:sh', $o);
    exit($w->acquire(8000) && $w->release() ? 0 : 1);
}
usleep(300000);
var_dump($r1->release(), $r2->release());
pcntl_waitpid($pid, $st);
var_dump(pcntl_wexitstatus($st));
$new = $s->failover();
/* Shares go to the new master once the old one is demoted (one written to the
 * old master just before may be lost with it: see docs/locks.md). */
$ok = false;
for ($i = 0; $i < 100 && !$ok; $i++) {
    try {
        $r3 = new RedisLock("sentinel:sh$i", $o);
        $ok = $r3->acquireRead() && $s->node($new)->cmd('EXISTS', "sentinel:sh$i") === 1;
    } catch (RedisLockException $e) {
    }
    if (!$ok) {
        usleep(100000);
    }
}
var_dump($ok, $new !== $old, $r3->isShared(), $r3->release());
?>
--EXPECT--
bool(true)
bool(true)
int(2)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
