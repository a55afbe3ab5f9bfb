--TEST--
RedisLock\RateLimiter and RedisLock\Atomic work on a Redis Cluster (names spread over the slots of three masters) and through Sentinel (the master it names), and a Sentinel failover does not lose counts
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../sentinel.inc';

/* Each name's limiter admits exactly its limit; counters add up. */
function exercise(string $dsn, string $prefix): void
{
    $admitted = 0;
    $sum = 0;
    for ($i = 0; $i < 20; $i++) {
        $limiter = new RedisLock\RateLimiter("login:$i", 3, 60000, ['servers' => $dsn, 'prefix' => $prefix,
            'policy' => ['gcra', 'fixed_window', 'sliding_window'][$i % 3]]);
        for ($k = 0; $k < 5; $k++) {
            $admitted += $limiter->consume() ? 1 : 0;
        }
        $stock = new RedisLock\Atomic("stock:$i", ['servers' => $dsn, 'prefix' => $prefix]);
        $stock->compareAndSet(null, '2');
        while ($stock->increment(-1, 0) !== false) {
        }
        $n = new RedisLock\Atomic("n:$i", ['servers' => $dsn, 'prefix' => $prefix]);
        $n->update(fn(?string $v) => (string) ((int) $v + $i));
        $sum += (int) $n->get() + (int) $stock->get();
    }
    echo "admitted $admitted of 100 (3 a name), sum $sum\n";
}

echo "cluster\n";
$c = new RLCluster();
exercise($c->dsn(), 'prim:');
$masters = [];
foreach ($c->keys('*prim:*') as $key => $port) {
    $masters[$port] = true;
}
echo 'keys on ', count($masters), " masters\n";

echo "sentinel\n";
$s = new RLSentinels();
exercise($s->dsn(), 'prim:');
$limiter = new RedisLock\RateLimiter('after', 1000, 60000, ['servers' => $s->dsn(), 'policy' => 'fixed_window']);
for ($i = 0; $i < 10; $i++) {
    $limiter->consume();
}
/* The counts reached the replica before the switch (without that, a
 * failover can lose the last writes: see docs/sentinel.md), and the Sentinels
 * are asked again (once a second) before the next count. */
$s->node($s->masterPort())->cmd('WAIT', '1', '5000');
$s->failover();
usleep(1100000);
$ok = false;
for ($t = 0; $t < 100 && !$ok; $t++) {
    try {
        $ok = $limiter->consume();
    } catch (RedisLockException $e) {
        usleep(100000);
    }
}
var_dump($ok, $limiter->remaining() <= 1000 - 11);
?>
--EXPECT--
cluster
admitted 60 of 100 (3 a name), sum 190
keys on 3 masters
sentinel
admitted 60 of 100 (3 a name), sum 190
bool(true)
bool(true)
