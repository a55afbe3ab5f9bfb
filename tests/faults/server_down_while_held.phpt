--TEST--
The server goes away while a lock is held: release() throws (the outcome is unknown), and the object keeps the hold until a release is answered
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';
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
/* The release was not answered: the object keeps the hold, so release()
 * can be tried again (and the end of the request would try it). */
var_dump($l->token() === $token);

/* Back up (empty, so the lock is gone): the retried release says so, and
 * the lock can be taken again. */
$srv->start();
var_dump($l->release(), $l->token());
var_dump($l->acquire(), $l->release());
$srv->stop();
?>
--EXPECT--
bool(true)
RedisLock\ConnectionException: isAcquired failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
RedisLock\ConnectionException: extend failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
RedisLock\ConnectionException: release failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
bool(true)
bool(false)
NULL
bool(true)
bool(true)
