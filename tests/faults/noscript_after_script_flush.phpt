--TEST--
release() and extend() still work after SCRIPT FLUSH: the script is loaded again (NOSCRIPT is never seen)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$admin = rl_admin();
/* The scripts, also where the server has the native commands that would
 * run instead. */
$opts = ['servers' => RL_DSN, 'prefix' => 'rltest:noscript_after_script_flush:', 'native_commands' => false];
$key = 'rltest:noscript_after_script_flush:job';
$l = new RedisLock('job', $opts);
$before = RedisLock::stats();

echo "release after a flush\n";
var_dump($l->acquire());
var_dump($admin->cmd('SCRIPT', 'FLUSH'));
var_dump($l->release());
var_dump($admin->cmd('EXISTS', $key));
var_dump($admin->info('memory', 'number_of_cached_scripts'));

echo "extend after a flush\n";
var_dump($l->acquire());
var_dump($admin->cmd('SCRIPT', 'FLUSH'));
var_dump($l->extend(600000));
var_dump($admin->cmd('PTTL', $key) > 10000);
var_dump($admin->cmd('GET', $key) === $l->token());

echo "release after another flush\n";
var_dump($admin->cmd('SCRIPT', 'FLUSH'));
var_dump($l->release());
var_dump($admin->cmd('EXISTS', $key));
var_dump($l->release());

$after = RedisLock::stats();
var_dump($after['script_reloads'] - $before['script_reloads']);
var_dump($after['released'] - $before['released']);
var_dump($after['extended'] - $before['extended']);
var_dump($after['errors'] - $before['errors']);
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('DEL', 'rltest:noscript_after_script_flush:job');
?>
--EXPECT--
release after a flush
bool(true)
string(2) "OK"
bool(true)
int(0)
string(1) "1"
extend after a flush
bool(true)
string(2) "OK"
bool(true)
bool(true)
bool(true)
release after another flush
string(2) "OK"
bool(true)
int(0)
bool(false)
int(3)
int(2)
int(1)
int(0)
