--TEST--
rediss:// DSN query and tls_* options: malformed ones throw ValueError/TypeError naming what is wrong; redis:// takes no query; phpinfo shows the TLS settings, password masked
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
redislock.servers="rediss://:Hidden1@127.0.0.1:6380?tls_verify=0&tls_ca=%2Fetc%2Fca%20x.pem,redis://127.0.0.1:6379"
--FILE--
<?php
$dsns = [
    'query on redis://' => 'redis://127.0.0.1?tls_verify=0',
    'unknown parameter' => 'rediss://127.0.0.1?verify=0',
    'tls_verify 2' => 'rediss://127.0.0.1?tls_verify=2',
    'tls_verify twice' => 'rediss://127.0.0.1?tls_verify=0&tls_verify=1',
    'empty tls_ca' => 'rediss://127.0.0.1?tls_ca=',
    'no value' => 'rediss://127.0.0.1?tls_ca',
    'bad escape' => 'rediss://127.0.0.1?tls_ca=%zz',
    'NUL in tls_key' => 'rediss://127.0.0.1?tls_cert=/a&tls_key=%00',
    'fragment' => 'rediss://127.0.0.1#x',
];
foreach ($dsns as $what => $dsn) {
    try {
        new RedisLock('x', ['servers' => $dsn]);
        echo "$what: accepted\n";
    } catch (ValueError $e) {
        echo "$what: ", $e->getMessage(), "\n";
    }
}
foreach ([['tls_ca' => 1], ['tls_verify' => 'no'], ['tls_cert' => "a\0b"], ['sync_replicas' => -1], ['sync_replicas' => 17]] as $o) {
    try {
        new RedisLock('x', $o);
        echo "accepted\n";
    } catch (TypeError | ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
ob_start();
phpinfo(INFO_MODULES);
preg_match('/^redislock\.servers => (.*) => .*$/m', ob_get_clean(), $m);
echo $m[1], "\n";
?>
--EXPECT--
query on redis://: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: redis:// DSNs take no query
unknown parameter: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: unknown query parameter (rediss:// takes tls_verify, tls_ca, tls_cert, tls_key)
tls_verify 2: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: tls_verify must be given once, as 0 or 1
tls_verify twice: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: tls_verify must be given once, as 0 or 1
empty tls_ca: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the query parameter tls_ca is empty
no value: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: a query parameter needs a value (name=value)
bad escape: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: malformed percent-escape in the query parameter tls_ca
NUL in tls_key: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the query parameter tls_key contains a NUL byte
fragment: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: a DSN takes no fragment
TypeError: RedisLock::__construct(): Argument #2 ($options) option "tls_ca" must be of type string, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "tls_verify" must be of type bool, string given
ValueError: RedisLock::__construct(): Argument #2 ($options) option "tls_cert" must not contain any null bytes
ValueError: RedisLock::__construct(): Argument #2 ($options) option "sync_replicas" must be between 0 and 16
ValueError: RedisLock::__construct(): Argument #2 ($options) option "sync_replicas" must be between 0 and 16
rediss://:***@127.0.0.1:6380?tls_verify=0&tls_ca=%2Fetc%2Fca%20x.pem,redis://127.0.0.1:6379
