--TEST--
A misspelled redislock.* INI name is not ignored in silence: at startup a warning names it and the known name nearest to it, once; the setting it was meant for keeps its default, and ini_set() of the unknown name returns false
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
redislock.server=redis://127.0.0.1:1
redislock.tll=5000
redislock.read_timout=50
redislock.Persistent=0
redislock.zookeeper_connect_timeout=500
--FILE--
<?php
echo "the settings meant keep their defaults\n";
var_dump(ini_get('redislock.servers'), ini_get('redislock.ttl'), ini_get('redislock.read_timeout'));
echo "the unknown names are no settings\n";
var_dump(ini_get('redislock.server'));
var_dump(ini_set('redislock.server', 'redis://127.0.0.1:2'));
var_dump(ini_get('redislock.server'));
?>
--EXPECTF--

Warning: redislock: unknown INI setting "redislock.server" (did you mean "redislock.servers"?) in Unknown on line 0

Warning: redislock: unknown INI setting "redislock.tll" (did you mean "redislock.ttl"?) in Unknown on line 0

Warning: redislock: unknown INI setting "redislock.read_timout" (did you mean "redislock.read_timeout"?) in Unknown on line 0

Warning: redislock: unknown INI setting "redislock.Persistent" (did you mean "redislock.persistent"?) in Unknown on line 0

Warning: redislock: unknown INI setting "redislock.zookeeper_connect_timeout" (did you mean "redislock.connect_timeout"?) in Unknown on line 0
the settings meant keep their defaults
string(22) "redis://127.0.0.1:6379"
string(5) "10000"
string(4) "1000"
the unknown names are no settings
bool(false)
bool(false)
bool(false)
