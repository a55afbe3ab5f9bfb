--TEST--
Quorum: a server listed twice (same address, whatever the database or credentials) is a ValueError, raised before anything is sent
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$servers = rl_quorum_servers(2);
$a = $servers[0]->dsn();
$b = $servers[1]->dsn();
$p = $servers[0]->port;
$watch = $servers[0]->client();
$connections = fn() => (int) $watch->info('stats', 'total_connections_received');
$before = $connections();

$lists = [
    "$a,$a",
    "$a,$b,$a",
    "$a/0,$a/1",
    "redis://127.0.0.1:$p/3,redis://127.0.0.1:$p/3",
    "redis://u:secret@127.0.0.1:$p,redis://127.0.0.1:$p",
    "$a, $b , $a ",
    "redis://127.0.0.1,redis://127.0.0.1:6379",
];
foreach ($lists as $list) {
    try {
        $lock = new RedisLock('job', ['servers' => $list, 'prefix' => 'rltest:quorum_duplicate_servers:']);
        echo "accepted: ", str_replace((string) $p, 'PORT', $list), "\n";
        var_dump($lock->acquire());
    } catch (Throwable $e) {
        echo rl_quorum_msg($e, $servers), "\n";
    }
}
/* The same check for the INI default. */
ini_set('redislock.servers', "$a,$b");
var_dump(ini_set('redislock.servers', "$a,$b,$a/2"));
var_dump(ini_get('redislock.servers') === "$a,$b");

/* Nothing reached the server. */
var_dump($connections() - $before);
var_dump(rl_quorum_keys($servers));

/* Different servers are fine. */
$lock = new RedisLock('job', rl_quorum_opts($servers, 'rltest:quorum_duplicate_servers:'));
var_dump($lock->acquire(), $lock->release());
?>
--EXPECTF--
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 2 are the same server (%s)
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 3 are the same server (%s)
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 2 are the same server (%s)
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 2 are the same server (%s)
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 2 are the same server (%s)
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 3 are the same server (%s)
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 2 are the same server (%s)

Warning: ini_set(): redislock.servers is not a valid DSN list: servers 1 and 3 are the same server (%s) in %s on line %d
bool(false)
bool(true)
int(0)
array(2) {
  [0]=>
  array(0) {
  }
  [1]=>
  array(0) {
  }
}
bool(true)
bool(true)
