--TEST--
The server goes away while a lock is held: release() throws (the outcome is unknown), then the hold is forgotten
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/failures.inc';
$srv = new RLServer();
$l = new RedisLock('job', ['servers' => $srv->dsn(), 'prefix' => 'rltest:server_down_while_held:']);
var_dump($l->acquire());
$token = $l->token();
rl_stop($srv);

foreach (['isAcquired', 'extend', 'release'] as $m) {
    try {
        var_dump($l->$m());
    } catch (RedisLockException $e) {
        $msg = $e->getMessage();
        echo get_class($e), ': ', str_replace((string) $srv->port, 'PORT', $msg), "\n";
        var_dump(str_contains($msg, $token));
    }
}
/* After release() the object no longer claims the lock. */
var_dump($l->token(), $l->remaining(), $l->release());

/* Back up (empty): the lock can be taken again. */
$srv->start();
var_dump($l->acquire(), $l->release());
$srv->stop();
?>
--EXPECT--
bool(true)
RedisLockException: isAcquired failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
RedisLockException: extend failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
RedisLockException: release failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
NULL
int(0)
bool(false)
bool(true)
bool(true)
