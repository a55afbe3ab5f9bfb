--TEST--
redislock.zookeeper_* INI names are known in a build with ZooKeeperLock (no warning); in a build without it the warning says they need a build --with-zookeeper, not that they are unknown
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!function_exists('proc_open')) die('skip proc_open() not available');
?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';

// A child PHP started with the names in -d: the warnings of its startup go to stderr.
$cmd = [PHP_BINARY, '-n', '-d', 'extension=' . rl_proxy_module(), '-d', 'display_startup_errors=1',
    '-d', 'display_errors=stderr', '-d', 'redislock.zookeeper_hosts=127.0.0.1:2181',
    '-d', 'redislock.zookeeper_session_timeout=5000', '-d', 'redislock.zookeeper_host=127.0.0.1:2181',
    '-r', 'echo ini_get("redislock.zookeeper_hosts") === false ? "unregistered" : "registered", "\n";'];
$proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
fclose($pipes[1]);
fclose($pipes[2]);
proc_close($proc);

$typo = 'unknown INI setting "redislock.zookeeper_host" (did you mean "redislock.zookeeper_hosts"?)';
if (class_exists('RedisLock\ZooKeeperLock')) {
    // Built with it: the real names are registered and quiet, the misspelled one is reported.
    var_dump(trim($out) === 'registered');
    var_dump(!str_contains($err, 'INI setting "redislock.zookeeper_hosts"'));
    var_dump(!str_contains($err, 'INI setting "redislock.zookeeper_session_timeout"'));
} else {
    // Built without it: each real name is said to need the build, not to be unknown.
    var_dump(trim($out) === 'unregistered');
    var_dump(str_contains($err, 'INI setting "redislock.zookeeper_hosts" is ignored: it needs a build --with-zookeeper'));
    var_dump(str_contains($err, 'INI setting "redislock.zookeeper_session_timeout" is ignored: it needs a build --with-zookeeper'));
}
var_dump(str_contains($err, $typo));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
