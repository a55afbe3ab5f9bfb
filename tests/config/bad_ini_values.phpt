--TEST--
Invalid redislock.* INI values never fall back to the defaults: at startup every lock that would use one throws RedisLockException (code CONFIG) naming the entry; ini_set() refuses one with a warning and the previous value stays
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
redislock.ttl=0
redislock.servers="redis://:IniStartupSecret@127.0.0.1:0"
--FILE--
<?php
require __DIR__ . '/../config.inc';
$admin = rl_admin();

echo "startup values that are invalid are kept, and locks that would use them throw\n";
var_dump(ini_get('redislock.ttl'));
foreach ([[], ['servers' => RL_DSN], ['ttl' => 5000], ['servers' => RL_DSN, 'ttl' => 5000]] as $options) {
    try {
        $l = new RedisLock('job', $options);
        echo "constructed\n";
    } catch (RedisLockException $e) {
        echo get_class($e), ' ', $e->getCode() === RedisLockException::CONFIG ? 'CONFIG' : $e->getCode(), ': ',
            $e->getMessage(), "\n";
        var_dump(str_contains($e->getMessage(), 'IniStartupSecret'));
    }
}

echo "valid values are taken\n";
var_dump(ini_set('redislock.servers', RL_DSN) !== false);
var_dump(ini_set('redislock.prefix', 'rltest:bad_ini_values:') !== false);
var_dump(ini_set('redislock.ttl', '5000') !== false);
var_dump(ini_set('redislock.read_timeout', '700') !== false);

echo "invalid values are refused\n";
foreach ([
    ['redislock.ttl', '0'], ['redislock.ttl', '-1'], ['redislock.ttl', '2147483648'], ['redislock.ttl', 'abc'],
    ['redislock.ttl', ''], ['redislock.ttl', '1.5'],
    ['redislock.connect_timeout', '0'], ['redislock.read_timeout', '3600001'],
    ['redislock.servers', 'nope'], ['redislock.servers', 'redis://:IniRuntimeSecret@127.0.0.1:99999'],
    ['redislock.servers', ''], ['redislock.servers', 'redis://a,,redis://b'],
] as [$name, $value]) {
    var_dump(ini_set($name, $value));
}
var_dump(ini_get('redislock.ttl'), ini_get('redislock.read_timeout'), ini_get('redislock.servers') === RL_DSN);

echo "new locks use the values in effect\n";
$l = new RedisLock('job');
var_dump($l->acquire());
var_dump($admin->cmd('GET', 'rltest:bad_ini_values:job') === $l->token());
$pttl = $admin->cmd('PTTL', 'rltest:bad_ini_values:job');
var_dump($pttl > 0 && $pttl <= 5000);

echo "a new prefix applies to new locks only\n";
var_dump(ini_set('redislock.prefix', 'rltest:bad_ini_values:other:'));
$o = new RedisLock('job');
var_dump($o->acquire());
var_dump($admin->cmd('GET', 'rltest:bad_ini_values:other:job') === $o->token());
var_dump($l->release(), $o->release());
var_dump($admin->cmd('EXISTS', 'rltest:bad_ini_values:job', 'rltest:bad_ini_values:other:job'));
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('DEL', 'rltest:bad_ini_values:job', 'rltest:bad_ini_values:other:job');
?>
--EXPECTF--
redislock: INI entry redislock.servers is not a valid DSN list: server 1: the port must be a number between 1 and 65535; every lock that uses it throws until it is fixed
redislock: INI entry redislock.ttl must be an integer between 1 and 2147483647; every lock that uses it throws until it is fixed
startup values that are invalid are kept, and locks that would use them throw
string(1) "0"
RedisLockException CONFIG: INI entry redislock.servers is not a valid DSN list: server 1: the port must be a number between 1 and 65535; INI entry redislock.ttl must be an integer between 1 and 2147483647
bool(false)
RedisLockException CONFIG: INI entry redislock.ttl must be an integer between 1 and 2147483647
bool(false)
RedisLockException CONFIG: INI entry redislock.servers is not a valid DSN list: server 1: the port must be a number between 1 and 65535
bool(false)
constructed
valid values are taken
bool(true)
bool(true)
bool(true)
bool(true)
invalid values are refused

Warning: ini_set(): redislock.ttl must be an integer between 1 and 2147483647 in %s on line %d
bool(false)

Warning: ini_set(): redislock.ttl must be an integer between 1 and 2147483647 in %s on line %d
bool(false)

Warning: ini_set(): redislock.ttl must be an integer between 1 and 2147483647 in %s on line %d
bool(false)

Warning: ini_set(): redislock.ttl must be an integer between 1 and 2147483647 in %s on line %d
bool(false)

Warning: ini_set(): redislock.ttl must be an integer between 1 and 2147483647 in %s on line %d
bool(false)

Warning: ini_set(): redislock.ttl must be an integer between 1 and 2147483647 in %s on line %d
bool(false)

Warning: ini_set(): redislock.connect_timeout must be an integer between 1 and 3600000 in %s on line %d
bool(false)

Warning: ini_set(): redislock.read_timeout must be an integer between 1 and 3600000 in %s on line %d
bool(false)

Warning: ini_set(): redislock.servers is not a valid DSN list: server 1: %s in %s on line %d
bool(false)

Warning: ini_set(): redislock.servers is not a valid DSN list: server 1: the port must be a number between 1 and 65535 in %s on line %d
bool(false)

Warning: ini_set(): redislock.servers is not a valid DSN list: server 1: %s in %s on line %d
bool(false)

Warning: ini_set(): redislock.servers is not a valid DSN list: server 2: %s in %s on line %d
bool(false)
string(4) "5000"
string(3) "700"
bool(true)
new locks use the values in effect
bool(true)
bool(true)
bool(true)
a new prefix applies to new locks only
string(22) "rltest:bad_ini_values:"
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
