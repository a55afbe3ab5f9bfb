--TEST--
Proxy: an unsolicited reply right behind acquire()'s is never taken as the answer to a later command: the connection is replaced, and a lock held by someone else is never reported as ours
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_extra_reply_after_acquire:';
$key = $p . 'job';
$other = str_repeat('0', 32);
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'ttl' => 30000, 'read_timeout' => 2000];

/* A warm connection, as a long-running worker has. */
$warm = new RedisLock('warm', $opts);
var_dump($warm->acquire(), $warm->release());
$accepted = $proxy->stats()['accepted'];

/* The server's +OK to SET NX arrives with a second +OK behind it, in the
 * same read. Either answer is right: the lock (the first reply is the real
 * one), or "unexpected data" (the outcome is unknown). */
$proxy->fault('extra +OK');
$a = new RedisLock('job', $opts);
try {
    $r = $a->acquire();
    echo $r === true ? "first acquire: ours or unexpected data\n" : "first acquire returned " . var_export($r, true) . "\n";
} catch (RedisLockException $e) {
    echo str_contains($e->getMessage(), 'unexpected data') ? "first acquire: ours or unexpected data\n"
        : 'first acquire threw: ' . str_replace((string) $proxy->port, 'PORT', $e->getMessage()) . "\n";
}

/* Now someone else holds the lock. The stray +OK must not answer the next
 * SET NX: that would report as ours a lock another client holds. */
rl_admin()->cmd('SET', $key, $other, 'PX', '30000');
$b = new RedisLock('job', $opts);
try {
    $r = $b->acquire(0);
    echo $r === false ? "second acquire: not ours\n" : "second acquire returned " . var_export($r, true) . "\n";
} catch (RedisLockException $e) {
    echo "second acquire: not ours\n";
}
var_dump($b->token() === null || rl_admin()->cmd('GET', $key) !== $b->token());
var_dump(rl_admin()->cmd('GET', $key) === $other);

/* The connection that carried the stray reply was not used again. */
var_dump($proxy->stats()['accepted'] > $accepted);
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_extra_reply_after_acquire:');
?>
--EXPECT--
bool(true)
bool(true)
first acquire: ours or unexpected data
second acquire: not ours
bool(true)
bool(true)
bool(true)
