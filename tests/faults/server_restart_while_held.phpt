--TEST--
A server restart (data lost) while a lock is held: isAcquired() and release() say false, a new acquire works
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';
$srv = new RLServer();
$opts = ['servers' => $srv->dsn(), 'prefix' => 'rltest:server_restart_while_held:'];
$key = 'rltest:server_restart_while_held:job';
$l = new RedisLock('job', $opts);
var_dump($l->acquire());
$before = RedisLock::stats();

rl_restart($srv);
var_dump($srv->client()->cmd('EXISTS', $key));

/* The hold is gone with the data; none of this throws. */
var_dump($l->remaining() > 0);
var_dump($l->isAcquired());
var_dump($l->token());
var_dump($l->remaining());
var_dump($l->release());
var_dump($l->extend());

/* The lock is free again for anyone, this object included. */
$other = new RedisLock('job', $opts);
var_dump($other->acquire());
var_dump($l->acquire());
var_dump($other->release());
var_dump($l->acquire());
var_dump($srv->client()->cmd('GET', $key) === $l->token());
var_dump($l->release());
var_dump($srv->client()->cmd('EXISTS', $key));

$after = RedisLock::stats();
var_dump($after['reconnects'] - $before['reconnects']);
var_dump($after['errors'] - $before['errors']);
$srv->stop();
?>
--EXPECT--
bool(true)
int(0)
bool(true)
bool(false)
NULL
int(0)
bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(1)
int(0)
