--TEST--
release() after a server restart reloads the lost scripts transparently and returns true
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';
$srv = new RLServer();
/* The scripts, also where the server has the native commands that would
 * run instead. */
$opts = ['servers' => $srv->dsn(), 'prefix' => 'rltest:noscript_after_restart:', 'native_commands' => false];
$key = 'rltest:noscript_after_restart:job';

/* Warm up: the scripts are now cached on the server. */
$l = new RedisLock('job', $opts);
var_dump($l->acquire(), $l->extend(), $l->release());
var_dump($srv->client()->info('memory', 'number_of_cached_scripts'));

/* The restart (no persistence) empties the script cache. */
rl_restart($srv);
var_dump($srv->client()->info('memory', 'number_of_cached_scripts'));

$before = RedisLock::stats();
var_dump($l->acquire());
var_dump($srv->client()->cmd('GET', $key) === $l->token());
var_dump($l->release());
var_dump($srv->client()->cmd('EXISTS', $key));
var_dump($l->acquire(), $l->extend(), $l->release());
$after = RedisLock::stats();
var_dump($after['script_reloads'] - $before['script_reloads']);
var_dump($after['reconnects'] - $before['reconnects']);
var_dump($after['errors'] - $before['errors']);
var_dump($srv->client()->info('memory', 'number_of_cached_scripts'));
$srv->stop();
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(1) "2"
string(1) "0"
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
int(2)
int(1)
int(0)
string(1) "2"
