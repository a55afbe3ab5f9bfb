--TEST--
rediss-cluster://: a Redis Cluster over TLS (its bus and replication too): the slot map read over TLS names the nodes' TLS ports, and locks over many slots go to their masters verified against tls_ca
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../tls.inc';
require __DIR__ . '/../cluster.inc';
$c = new RLCluster(rl_tls_certs());
ini_set('redislock.tls_ca', rl_tls_certs() . '/ca.pem');

$locks = [];
for ($i = 0; $i < 20; $i++) {
    $locks[$i] = new RedisLock("tls:k$i", ['servers' => $c->dsn(), 'fencing' => true]);
    if (!$locks[$i]->acquire()) {
        echo "lock $i not granted\n";
    }
}
$where = $c->keys('tls:k*');
$right = 0;
foreach ($where as $key => $port) {
    $right += $port === $c->masterOf($c->slot($key)) ? 1 : 0;
}
var_dump(count($where), $right, count(array_unique($where)));
foreach ($locks as $i => $l) {
    if (!$l->release()) {
        echo "lock $i not released\n";
    }
}
var_dump($c->keys('tls:k*'));
/* Each node's connection is one TLS connection: the seeds are masters too. */
var_dump(RedisLock::stats()['connects'] <= 5);
?>
--EXPECT--
int(20)
int(20)
int(3)
array(0) {
}
bool(true)
