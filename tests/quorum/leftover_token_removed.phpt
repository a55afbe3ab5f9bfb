--TEST--
A token whose fate is unknown (acquire timed out on a stalled server) costs one read timeout, and is removed once the server answers again, long before its lease ends
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$srv = new RLServer();
$c = $srv->client();
$prefix = 'rltest:leftover_token_removed:';
$opts = ['servers' => $srv->dsn(), 'prefix' => $prefix, 'ttl' => 30000, 'read_timeout' => 500];
$l = new RedisLock('job', $opts);
/* Warm: connection open, code paths used. */
var_dump($l->acquire(), $l->release());

$srv->freeze();
$t0 = hrtime(true);
try {
    var_dump($l->acquire());
} catch (RedisLockException $e) {
    echo get_class($e), ': ', str_replace((string) $srv->port, 'PORT', $e->getMessage()), "\n";
}
$ms = (hrtime(true) - $t0) / 1e6;
echo $ms < 500 + 400 ? "one read timeout, no second one for the cleanup\n" : "took $ms ms\n";
var_dump($l->token());

/* Thawed, the server runs the SET it had in its socket: our token lands
 * with a 30 s lease, and no lock object holds it. */
$srv->thaw();
$v = $c->cmd('GET', $prefix . 'job');
var_dump(is_string($v) && strlen($v) === 32);
/* The next operation of this process on that server removes it. */
$other = new RedisLock('other', $opts);
var_dump($other->acquire(), $other->release());
var_dump($c->cmd('GET', $prefix . 'job'));
/* And the lock is free for anyone. */
var_dump($l->acquire(), $l->release());
?>
--EXPECT--
bool(true)
bool(true)
RedisLock\ConnectionException: acquire failed: 127.0.0.1:PORT did not reply within 500 ms
one read timeout, no second one for the cleanup
NULL
bool(true)
bool(true)
bool(true)
NULL
bool(true)
bool(true)
