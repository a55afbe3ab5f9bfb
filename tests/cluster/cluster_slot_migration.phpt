--TEST--
redis-cluster://: a lock's slot migrated to another master while the lock is held: extend and isAcquired follow the ASK redirect during the move, release the MOVED one after it; nothing is left behind
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
$c = new RLCluster();
$opts = ['servers' => $c->dsn(), 'fencing' => true];

$l = new RedisLock('migrating', $opts);
var_dump($l->acquire());
$slot = $c->slot('migrating');
$from = $c->masterOf($slot);
$to = 0;
foreach ($c->nodes as $port => $n) {
    if ($port !== $from && ($c->client($port)->cmd('ROLE')[0] ?? '') === 'master') {
        $to = $port;
        break;
    }
}
$from_id = $c->nodeId($from);
$to_id = $c->nodeId($to);

/* The move begins: the keys go over, the slot is still the old master's. */
var_dump($c->client($to)->cmd('CLUSTER', 'SETSLOT', (string) $slot, 'IMPORTING', $from_id));
var_dump($c->client($from)->cmd('CLUSTER', 'SETSLOT', (string) $slot, 'MIGRATING', $to_id));
$keys = $c->client($from)->cmd('CLUSTER', 'GETKEYSINSLOT', (string) $slot, '100');
var_dump(count($keys));
var_dump($c->client($from)->cmd('MIGRATE', '127.0.0.1', (string) $to, '', '0', '5000', 'KEYS', ...$keys));
var_dump($l->extend(), $l->isAcquired());

/* The move ends: the new master owns the slot. */
foreach ($c->nodes as $port => $n) {
    if (($c->client($port)->cmd('ROLE')[0] ?? '') === 'master') {
        $c->client($port)->cmd('CLUSTER', 'SETSLOT', (string) $slot, 'NODE', $to_id);
    }
}
var_dump($l->release());
$other = new RedisLock('migrating', $opts);
var_dump($other->acquire(), $c->client($to)->cmd('GET', 'migrating') === $other->token(), $other->release());
var_dump($c->client($to)->cmd('EXISTS', 'migrating'), $c->client($from)->cmd('CLUSTER', 'COUNTKEYSINSLOT', (string) $slot));
?>
--EXPECT--
bool(true)
string(2) "OK"
string(2) "OK"
int(2)
string(2) "OK"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(0)
