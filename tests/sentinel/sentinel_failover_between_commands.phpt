--TEST--
redis-sentinel:// with sync_replicas: a SENTINEL FAILOVER that lands between the grant and its replication check does not move the check to the new master; the grant the old master took alone is refused, and the lock has one holder
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';
require __DIR__ . '/../proxy.inc';
/* Two replicas: after the failover the new master has one, so a WAIT sent
 * there would be answered at once. */
$s = new RLSentinels(null, 2);
$old = $s->masterPort();

/* Process A learns the master, then, told to, takes the lock. */
$a = rl_proxy_child('
    $l = new RedisLock("sentinel:split", ["servers" => $argv[1], "sync_replicas" => 1, "ttl" => 60000,
        "connect_timeout" => 15000, "read_timeout" => 15000]);
    echo $l->acquire() && $l->release() ? "warm\n" : "cold\n";
    fgets(STDIN);
    try {
        $r = $l->acquire();
        echo "A: ", var_export($r, true), "\n";
    } catch (RedisLockException $e) {
        echo "A: ", get_class($e), str_contains($e->getMessage(), "replica(s) acknowledged") ? " (replicas)" : " "
            . $e->getMessage(), "\n";
    }
', [$s->dsn()]);
echo rl_proxy_read_line($a['out'], 30000), "\n";

/* The master freezes before A's SET reaches it: the SET waits in its socket
 * while the Sentinels promote a replica, and runs on the old master once it
 * thaws, which no replica ever gets. */
$s->server($old)->freeze();
fwrite($a['in'], "go\n");
usleep(500000);
$new = $s->failover();
$synced = false;
for ($i = 0; $i < 300 && !$synced; $i++) {
    try {
        $n = $s->node($new);
        $n->cmd('SET', 'rl:sentinel:probe', (string) $i);
        $synced = $n->cmd('WAIT', '1', '100') === 1;
    } catch (RuntimeException) {
    }
    if (!$synced) {
        usleep(50000);
    }
}
var_dump($synced, $s->allName($new));
$s->server($old)->thaw();
echo rl_proxy_read_line($a['out'], 60000), "\n";

/* B, after the failover: the new master never had A's grant. */
$b = new RedisLock('sentinel:split', ['servers' => $s->dsn(), 'sync_replicas' => 1, 'read_timeout' => 5000]);
echo 'B: ', var_export($b->acquire(), true), "\n";
var_dump($s->node($new)->cmd('GET', 'sentinel:split') === $b->token());
$b->release();
echo 'A exit: ', rl_proxy_reap($a), "\n";
?>
--EXPECT--
warm
bool(true)
bool(true)
A: RedisLock\ConnectionException (replicas)
B: true
bool(true)
A exit: 0
