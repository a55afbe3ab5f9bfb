--TEST--
Proxy: an unsolicited reply that arrives while the connection is idle gets it replaced before the next command: a lock held by someone else is never reported as ours
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_extra_reply_while_idle:';
$key = $p . 'job';
$other = str_repeat('0', 32);
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'ttl' => 30000, 'read_timeout' => 2000];

$warm = new RedisLock('warm', $opts);
var_dump($warm->acquire(), $warm->release());
$accepted = $proxy->stats()['accepted'];

/* A stray +OK 100 ms after acquire()'s own reply, when nobody reads. */
$proxy->fault('extra +OK after=100');
$a = new RedisLock('job', $opts);
var_dump($a->acquire());
usleep(300000);

rl_admin()->cmd('SET', $key, $other, 'PX', '30000');
$b = new RedisLock('job', $opts);
try {
    $r = $b->acquire(0);
    echo $r === false ? "acquire: not ours\n" : "acquire returned " . var_export($r, true) . "\n";
} catch (RedisLockException $e) {
    echo 'acquire threw: ' . str_replace((string) $proxy->port, 'PORT', $e->getMessage()) . "\n";
}
var_dump(rl_admin()->cmd('GET', $key) === $other);
var_dump($proxy->stats()['accepted'] - $accepted);
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_extra_reply_while_idle:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
acquire: not ours
bool(true)
int(1)
