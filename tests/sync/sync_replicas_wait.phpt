--TEST--
sync_replicas: acquire and extend are true once that many replicas acknowledged; when too few did, the hold is removed again and a ConnectionException says so
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$master = new RLServer(['--repl-diskless-sync-delay', '0']);
$replica = new RLServer(['--replicaof', '127.0.0.1', (string) $master->port]);
/* Until the replica acknowledges writes promptly, three times running
 * (just after its first sync an acknowledgement may take a second). */
$m = $master->client();
for ($i = 0, $ok = 0; $i < 200 && $ok < 3; $i++) {
    $m->cmd('SET', 'sync:probe', (string) $i);
    $ok = $m->cmd('WAIT', '1', '100') === 1 ? $ok + 1 : 0;
}

$l = new RedisLock('sync', ['servers' => $master->dsn(), 'sync_replicas' => 1, 'read_timeout' => 400]);
var_dump($l->acquire());
var_dump($replica->client()->cmd('GET', 'sync') === $l->token());
var_dump($l->extend(5000));

/* Two replicas asked for, one there: nothing is granted and nothing kept. */
$two = new RedisLock('sync2', ['servers' => $master->dsn(), 'sync_replicas' => 2, 'read_timeout' => 400]);
try {
    var_dump($two->acquire());
} catch (RedisLock\ConnectionException $e) {
    echo $e->getMessage(), "\n";
}
var_dump($two->token(), $m->cmd('EXISTS', 'sync2'));
$m->cmd('DEL', 'sync:probe');

/* The replica goes away while the lock is held: extend reports it, and the
 * hold is gone. */
$replica->stop();
try {
    var_dump($l->extend());
} catch (RedisLock\ConnectionException $e) {
    echo $e->getMessage(), "\n";
}
var_dump($l->token(), $m->cmd('EXISTS', 'sync'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
acquire: fewer than 2 replica(s) acknowledged it within 200 ms on a quorum of the servers, so the hold was released
NULL
int(0)
extend: fewer than 1 replica(s) acknowledged it within 200 ms on a quorum of the servers, so the hold was released
NULL
int(0)
