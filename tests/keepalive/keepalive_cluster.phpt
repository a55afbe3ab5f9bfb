--TEST--
Keepalive on redis-cluster://: exclusive holds of names on different masters (and a share and a Semaphore hold) with a 500 ms ttl survive a 3 s blocking sleep, each renewed on the node of its slot
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
$c = new RLCluster();
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 1500 : 500;
$o = ['servers' => $c->dsn(), 'prefix' => 'ka:', 'ttl' => $ttl, 'keepalive' => true];
$locks = [];
$masters = [];
for ($i = 0; $i < 6; $i++) {
    $locks[$i] = new RedisLock("x$i", $o);
    $locks[$i]->acquire();
    $masters[$c->masterOf($c->slot("ka:x$i"))] = true;
}
$share = new RedisLock('r', $o);
$sem = new RedisLock\Semaphore('s', 1, $o);
var_dump(count($masters) >= 2, $share->acquireRead(), $sem->acquire());
sleep(3);
$held = 0;
foreach ($locks as $i => $l) {
    $node = $c->client($c->masterOf($c->slot("ka:x$i")));
    $held += $l->isAcquired() && $node->cmd('GET', "ka:x$i") === $l->token() && $node->cmd('PTTL', "ka:x$i") <= $ttl ? 1 : 0;
}
$other = ['servers' => $c->dsn(), 'prefix' => 'ka:', 'ttl' => $ttl];
echo "$held of 6 exclusive holds kept\n";
var_dump($share->isAcquired(), (new RedisLock('r', $other))->acquire());
var_dump($sem->isAcquired(), (new RedisLock\Semaphore('s', 1, $other))->available());
var_dump(RedisLock::stats()['keepalive_lost']);
$released = 0;
foreach ($locks as $l) {
    $released += $l->release() ? 1 : 0;
}
var_dump($released, $share->release(), $sem->release());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
6 of 6 exclusive holds kept
bool(true)
bool(false)
bool(true)
int(0)
int(0)
int(6)
bool(true)
bool(true)
