--TEST--
Bad lock names and options throw ValueError or TypeError naming the argument and the option
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
$cases = [
    ['', []],
    ['job', ['servers' => 5]],
    ['job', ['servers' => ['redis://127.0.0.1']]],
    ['job', ['servers' => null]],
    ['job', ['prefix' => 5]],
    ['job', ['prefix' => null]],
    ['job', ['ttl' => '1000']],
    ['job', ['ttl' => 1000.0]],
    ['job', ['ttl' => null]],
    ['job', ['ttl' => true]],
    ['job', ['ttl' => new stdClass()]],
    ['job', ['ttl' => 0]],
    ['job', ['ttl' => -1]],
    ['job', ['ttl' => 2147483648]],
    ['job', ['ttl' => PHP_INT_MIN]],
    ['job', ['connect_timeout' => '1000']],
    ['job', ['connect_timeout' => 0]],
    ['job', ['connect_timeout' => 3600001]],
    ['job', ['read_timeout' => 1.5]],
    ['job', ['read_timeout' => 0]],
    ['job', ['read_timeout' => 3600001]],
    ['job', ['persistent' => 1]],
    ['job', ['persistent' => 'yes']],
    ['job', ['auto_release' => 0]],
    ['job', ['auto_release' => null]],
    ['job', ['foo' => 1]],
    ['job', ['TTL' => 1000]],
    ['job', ['ttl ' => 1000]],
    ['job', [0 => 'redis://127.0.0.1']],
    ['job', ['redis://127.0.0.1']],
    /* The first bad entry is reported, whatever follows. */
    ['job', ['ttl' => 1000, 'bogus' => 1, 'read_timeout' => 0]],
];
foreach ($cases as [$name, $options]) {
    try {
        new RedisLock($name, $options);
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}

/* Limits themselves are accepted. */
new RedisLock('job', ['ttl' => 1, 'connect_timeout' => 1, 'read_timeout' => 1]);
new RedisLock('job', ['ttl' => 2147483647, 'connect_timeout' => 3600000, 'read_timeout' => 3600000]);
/* A name may be any bytes. */
new RedisLock("\0", []);
echo "limits accepted\n";

/* A constructed object cannot be constructed again. */
$l = new RedisLock('job', ['servers' => 'redis://127.0.0.1:1']);
try {
    $l->__construct('other', ['ttl' => 0]);
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
/* Nothing was sent anywhere. */
var_dump(RedisLock::stats()['connects']);
?>
--EXPECTF--
ValueError: RedisLock::__construct(): Argument #1 ($name) must not be empty
TypeError: RedisLock::__construct(): Argument #2 ($options) option "servers" must be of type string, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "servers" must be of type string, array given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "servers" must be of type string, null given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, null given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, string given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, float given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, null given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, bool given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, stdClass given
ValueError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be between 1 and 2147483647
ValueError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be between 1 and 2147483647
ValueError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be between 1 and 2147483647
ValueError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be between 1 and 2147483647
TypeError: RedisLock::__construct(): Argument #2 ($options) option "connect_timeout" must be of type int, string given
ValueError: RedisLock::__construct(): Argument #2 ($options) option "connect_timeout" must be between 1 and 3600000
ValueError: RedisLock::__construct(): Argument #2 ($options) option "connect_timeout" must be between 1 and 3600000
TypeError: RedisLock::__construct(): Argument #2 ($options) option "read_timeout" must be of type int, float given
ValueError: RedisLock::__construct(): Argument #2 ($options) option "read_timeout" must be between 1 and 3600000
ValueError: RedisLock::__construct(): Argument #2 ($options) option "read_timeout" must be between 1 and 3600000
TypeError: RedisLock::__construct(): Argument #2 ($options) option "persistent" must be of type bool, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "persistent" must be of type bool, string given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "auto_release" must be of type bool, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "auto_release" must be of type bool, null given
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "foo"
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "TTL"
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "ttl "
ValueError: RedisLock::__construct(): Argument #2 ($options) must only have string keys (option names)
ValueError: RedisLock::__construct(): Argument #2 ($options) must only have string keys (option names)
ValueError: RedisLock::__construct(): Argument #2 ($options) contains unknown option "bogus"
limits accepted
Error: RedisLock object is already constructed
int(0)
