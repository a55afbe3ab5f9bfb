--TEST--
ZooKeeperLock: bad names, options, waits and INI values are refused with ValueError/TypeError before anything is sent
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../zookeeper.inc';
if (!class_exists('RedisLock\ZooKeeperLock')) die('skip RedisLock\ZooKeeperLock not built (configure --with-zookeeper)');
?>
--INI--
redislock.zookeeper_session_timeout=abc
--FILE--
<?php
require __DIR__ . '/../zookeeper.inc';
/* Nothing listens here: any request sent would fail with a ConnectionException. */
$hosts = '127.0.0.1:' . rl_free_port();
function attempt(callable $fn): void
{
    try {
        $fn();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
foreach (['', 'a/b', '.', '..', "a\nb", "a\0b", str_repeat('x', 256)] as $name) {
    attempt(fn() => new RedisLock\ZooKeeperLock($name, ['hosts' => $hosts]));
}
foreach ([
    ['root' => 'relative'], ['root' => '/'], ['root' => '/a/'], ['root' => '/a//b'], ['root' => '/a/../b'],
    ['root' => 1], ['hosts' => ''], ['hosts' => 'localhost'], ['hosts' => 'h:0'], ['hosts' => 'h:2181,'],
    ['hosts' => 'h:2181/'], ['hosts' => 'h:99999'], ['hosts' => 'h :2181'], ['session_timeout' => 0],
    ['connect_timeout' => -1], ['connect_timeout' => '100'], ['auto_release' => 1], ['ttl' => 1000],
    [0 => 'x'],
] as $options) {
    attempt(fn() => new RedisLock\ZooKeeperLock('job', $options + ['hosts' => $hosts]));
}
echo "valid forms\n";
foreach (['h:2181', 'a.b-c:1,10.0.0.1:2181,[::1]:2181', 'h:2181/chroot/x'] as $h) {
    attempt(fn() => new RedisLock\ZooKeeperLock('job', ['hosts' => $h, 'root' => '/a/b']));
}
$l = new RedisLock\ZooKeeperLock('job', ['hosts' => $hosts]);
attempt(fn() => $l->acquire(-1));
attempt(fn() => $l->run(fn() => 1, -1));
attempt(fn() => $l->run('no_such_function'));

echo "INI\n";
var_dump(ini_get('redislock.zookeeper_session_timeout'), ini_get('redislock.zookeeper_hosts'));
var_dump(ini_set('redislock.zookeeper_session_timeout', '0'), ini_set('redislock.zookeeper_session_timeout', '1e3'));
var_dump(ini_set('redislock.zookeeper_hosts', 'nope'), ini_set('redislock.zookeeper_hosts', $hosts));
var_dump(ini_get('redislock.zookeeper_hosts') === $hosts);
?>
--EXPECTF--
Warning: PHP Startup: redislock.zookeeper_session_timeout must be an integer between 1 and 3600000 in Unknown on line 0
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #1 ($name) must be one ZooKeeper path segment: not empty, at most 255 bytes, no "/", no control character, not "." or ".."
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #1 ($name) must be one ZooKeeper path segment: not empty, at most 255 bytes, no "/", no control character, not "." or ".."
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #1 ($name) must be one ZooKeeper path segment: not empty, at most 255 bytes, no "/", no control character, not "." or ".."
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #1 ($name) must be one ZooKeeper path segment: not empty, at most 255 bytes, no "/", no control character, not "." or ".."
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #1 ($name) must be one ZooKeeper path segment: not empty, at most 255 bytes, no "/", no control character, not "." or ".."
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #1 ($name) must not contain any null bytes
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #1 ($name) must be one ZooKeeper path segment: not empty, at most 255 bytes, no "/", no control character, not "." or ".."
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "root" must be an absolute node path such as "/redislock"
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "root" must be an absolute node path such as "/redislock"
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "root" must be an absolute node path such as "/redislock"
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "root" must be an absolute node path such as "/redislock"
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "root" must be an absolute node path such as "/redislock"
TypeError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "root" must be of type string, int given
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "hosts" must be a ZooKeeper connect string (host:port[,host:port...][/chroot])
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "hosts" must be a ZooKeeper connect string (host:port[,host:port...][/chroot])
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "hosts" must be a ZooKeeper connect string (host:port[,host:port...][/chroot])
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "hosts" must be a ZooKeeper connect string (host:port[,host:port...][/chroot])
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "hosts" must be a ZooKeeper connect string (host:port[,host:port...][/chroot])
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "hosts" must be a ZooKeeper connect string (host:port[,host:port...][/chroot])
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "hosts" must be a ZooKeeper connect string (host:port[,host:port...][/chroot])
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "session_timeout" must be between 1 and 3600000
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "connect_timeout" must be between 1 and 3600000
TypeError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "connect_timeout" must be of type int, string given
TypeError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) option "auto_release" must be of type bool, int given
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) contains unknown option "ttl"
ValueError: RedisLock\ZooKeeperLock::__construct(): Argument #2 ($options) must only have string keys (option names)
valid forms
no error
no error
no error
ValueError: RedisLock\ZooKeeperLock::acquire(): Argument #1 ($waitMs) must be greater than or equal to 0
ValueError: RedisLock\ZooKeeperLock::run(): Argument #2 ($waitMs) must be greater than or equal to 0
TypeError: RedisLock\ZooKeeperLock::run(): Argument #1 ($fn) must be a valid callback, function "no_such_function" not found or invalid function name
INI
string(5) "10000"
string(14) "127.0.0.1:2181"

Warning: ini_set(): redislock.zookeeper_session_timeout must be an integer between 1 and 3600000 in %s on line %d

Warning: ini_set(): redislock.zookeeper_session_timeout must be an integer between 1 and 3600000 in %s on line %d
bool(false)
bool(false)

Warning: ini_set(): redislock.zookeeper_hosts must be a ZooKeeper connect string (host:port[,host:port...][/chroot]) in %s on line %d
bool(false)
string(14) "127.0.0.1:2181"
bool(true)
