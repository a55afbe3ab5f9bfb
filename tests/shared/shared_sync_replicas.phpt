--TEST--
sync_replicas with shared holds: a share (one reader, or one among several) is granted and extended once the replicas acknowledge it, and refused (nothing left held) when too few can
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$master = new RLServer(['--repl-diskless-sync-delay', '0']);
$replica = new RLServer(['--replicaof', '127.0.0.1', (string) $master->port]);
$m = $master->client();
for ($i = 0, $ok = 0; $i < 200 && $ok < 3; $i++) {
    $m->cmd('SET', 'sync:probe', (string) $i);
    $ok = $m->cmd('WAIT', '1', '100') === 1 ? $ok + 1 : 0;
}
$m->cmd('DEL', 'sync:probe');
$r = $replica->client();

$opts = ['servers' => $master->dsn(), 'sync_replicas' => 1, 'read_timeout' => 400];
$a = new RedisLock('sync:shared', $opts);
$b = new RedisLock('sync:shared', $opts);
echo "one reader: "; var_dump($a->acquireRead(), $a->isShared());
echo "on the replica: "; var_dump($r->cmd('EXISTS', 'sync:shared'));
echo "a second reader: "; var_dump($b->acquireRead(), $b->isShared());
echo "extend, among two: "; var_dump($a->extend(), $b->extend());
var_dump($a->release(), $b->release());

$two = new RedisLock('sync:shared2', ['sync_replicas' => 2] + $opts);
try {
    var_dump($two->acquireRead());
} catch (RedisLock\ConnectionException $e) {
    echo "too few replicas: ConnectionException\n";
}
var_dump($two->isAcquired(), $m->cmd('EXISTS', 'sync:shared2'));
?>
--EXPECT--
one reader: bool(true)
bool(true)
on the replica: int(1)
a second reader: bool(true)
bool(true)
extend, among two: bool(true)
bool(true)
bool(true)
bool(true)
too few replicas: ConnectionException
bool(false)
int(0)
