--TEST--
Malformed DSNs throw ValueError naming option "servers", never echoing a password
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
$pw = 'DsnSecret99';
$many = fn(int $n) => implode(',', array_map(fn($i) => "redis://:$pw@10.0.0.$i", range(1, $n)));
$dsns = [
    'no scheme' => "$pw@127.0.0.1:6379",
    'http scheme' => "http://:$pw@127.0.0.1",
    'empty' => '',
    'blank' => '   ',
    'empty host' => "redis://:$pw@:6379",
    'nothing after the scheme' => 'redis://',
    'port 0' => "redis://:$pw@127.0.0.1:0",
    'port 65536' => "redis://:$pw@127.0.0.1:65536",
    'port abc' => "redis://:$pw@127.0.0.1:abc",
    'empty port' => "redis://:$pw@127.0.0.1:",
    'db -1' => "redis://:$pw@127.0.0.1:6379/-1",
    'db abc' => "redis://:$pw@127.0.0.1:6379/abc",
    'query on redis://' => "redis://:$pw@127.0.0.1:6379?db=1",
    'user without password' => 'redis://someuser@127.0.0.1',
    'bad escape in password' => "redis://u:$pw%zz@127.0.0.1",
    'truncated escape in password' => "redis://u:$pw%4@127.0.0.1",
    'bad escape in user' => "redis://u%g1:$pw@127.0.0.1",
    'host with a space' => "redis://:$pw@127.0 .0.1",
    'unterminated IPv6' => "redis://:$pw@[::1",
    'NUL byte' => "redis://:$pw@127.0.0.1\0",
    'unix without a path' => 'unix://',
    'unix relative path' => 'unix://run/redis.sock',
    'unix path /' => 'unix:///',
    'unix userinfo, relative path' => "unix://u:$pw@run/redis.sock",
    'unix query other than db' => 'unix:///run/redis.sock?timeout=1',
    'unix db abc' => 'unix:///run/redis.sock?db=abc',
    'unix db and more' => 'unix:///run/redis.sock?db=1&x=2',
    'empty entry in a list' => "redis://:$pw@a,,redis://:$pw@b",
    'trailing comma' => "redis://:$pw@a,",
    'duplicate servers' => "redis://:$pw@a,redis://:other@A:6379",
    'duplicate with another db' => "redis://a:1,redis://a:1/2",
    'duplicate unix sockets' => 'unix:///run/r.sock,unix:///run/r.sock?db=3',
    'error in the third entry' => "redis://a,redis://b,redis://:$pw@c:0",
    '16 servers' => $many(16),
];
foreach ($dsns as $what => $dsn) {
    try {
        new RedisLock('job', ['servers' => $dsn]);
        echo "$what: accepted\n";
    } catch (ValueError $e) {
        echo "$what: ", $e->getMessage(), "\n";
        if (str_contains((string) $e, $pw)) {
            echo "  LEAK\n";
        }
    }
}
/* The limits are accepted. */
new RedisLock('job', ['servers' => $many(15)]);
new RedisLock('job', ['servers' => 'redis://127.0.0.1:65535/2147483647, unix:///run/redis.sock?db=0,redis://[::1]:1']);
echo "limits accepted\n";
var_dump(RedisLock::stats()['connects']);
?>
--EXPECTF--
no scheme: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
http scheme: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
empty: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: %s
blank: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: %s
empty host: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
nothing after the scheme: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
port 0: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the port must be a number between 1 and 65535
port 65536: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the port must be a number between 1 and 65535
port abc: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the port must be a number between 1 and 65535
empty port: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
db -1: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
db abc: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
query on redis://: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
user without password: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
bad escape in password: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
truncated escape in password: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
bad escape in user: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
host with a space: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
unterminated IPv6: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
NUL byte: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: %s
unix without a path: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
unix relative path: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
unix path /: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
unix userinfo, relative path: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
unix query other than db: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
unix db abc: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
unix db and more: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: %s
empty entry in a list: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 2: %s
trailing comma: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 2: %s
duplicate servers: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 2 are the same server%s
duplicate with another db: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 2 are the same server%s
duplicate unix sockets: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 2 are the same server%s
error in the third entry: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 3: the port must be a number between 1 and 65535
16 servers: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: %s15%s
limits accepted
int(0)
