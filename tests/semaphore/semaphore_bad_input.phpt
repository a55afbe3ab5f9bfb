--TEST--
Semaphore: bad arguments are a ValueError or TypeError before anything is sent (a quorum list, RedisLock's fair/fencing/quorum_timeout, unknown options)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
/* Nothing listens there: an error that is not a ValueError/TypeError would be a ConnectionException. */
$o = ['servers' => 'redis://127.0.0.1:' . rl_free_port()];
$cases = [
    'empty name' => fn() => new RedisLock\Semaphore('', 1, $o),
    'limit 0' => fn() => new RedisLock\Semaphore('x', 0, $o),
    'limit too large' => fn() => new RedisLock\Semaphore('x', PHP_INT_MAX, $o),
    'weight 0' => fn() => new RedisLock\Semaphore('x', 2, $o + ['weight' => 0]),
    'weight over limit' => fn() => new RedisLock\Semaphore('x', 2, $o + ['weight' => 3]),
    'weight string' => fn() => new RedisLock\Semaphore('x', 2, $o + ['weight' => '1']),
    'ttl 0' => fn() => new RedisLock\Semaphore('x', 2, $o + ['ttl' => 0]),
    'ttl string' => fn() => new RedisLock\Semaphore('x', 2, $o + ['ttl' => 'long']),
    'fair' => fn() => new RedisLock\Semaphore('x', 2, $o + ['fair' => true]),
    'fencing' => fn() => new RedisLock\Semaphore('x', 2, $o + ['fencing' => true]),
    'quorum_timeout' => fn() => new RedisLock\Semaphore('x', 2, $o + ['quorum_timeout' => 50]),
    'unknown option' => fn() => new RedisLock\Semaphore('x', 2, $o + ['colour' => 'red']),
    'quorum list' => fn() => new RedisLock\Semaphore('x', 2, ['servers' => 'redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3']),
    'negative wait' => fn() => (new RedisLock\Semaphore('x', 2, $o))->acquire(-1),
    'negative wait in run' => fn() => (new RedisLock\Semaphore('x', 2, $o))->run(fn() => 1, -5),
    'negative ttl' => fn() => (new RedisLock\Semaphore('x', 2, $o))->extend(-1),
    'forceRelease empty name' => fn() => RedisLock\Semaphore::forceRelease('', $o),
    'forceRelease fair' => fn() => RedisLock\Semaphore::forceRelease('x', $o + ['fair' => true]),
    'constructed twice' => fn() => (new RedisLock\Semaphore('x', 2, $o))->__construct('y', 2, $o),
];
foreach ($cases as $what => $f) {
    try {
        $f();
        echo "$what: no error\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
try {
    (new RedisLock\Semaphore('x', 2, $o))->acquire();
} catch (RedisLock\ConnectionException $e) {
    echo "a valid call: ConnectionException\n";
}
?>
--EXPECTF--
empty name: ValueError: RedisLock\Semaphore::__construct(): Argument #1 ($name) must not be empty
limit 0: ValueError: RedisLock\Semaphore::__construct(): Argument #2 ($limit) must be between 1 and 2147483647
limit too large: ValueError: RedisLock\Semaphore::__construct(): Argument #2 ($limit) must be between 1 and 2147483647
weight 0: ValueError: RedisLock\Semaphore::__construct(): Argument #3 ($options) option "weight" must be between 1 and the limit (2)
weight over limit: ValueError: RedisLock\Semaphore::__construct(): Argument #3 ($options) option "weight" must be between 1 and the limit (2)
weight string: TypeError: RedisLock\Semaphore::__construct(): Argument #3 ($options) option "weight" must be of type int, string given
ttl 0: ValueError: RedisLock\Semaphore::__construct(): Argument #3 ($options) option "ttl" must be between 1 and 2147483647
ttl string: TypeError: RedisLock\Semaphore::__construct(): Argument #3 ($options) option "ttl" must be of type int, string given
fair: ValueError: RedisLock\Semaphore::__construct(): Argument #3 ($options) contains the option "fair", which is RedisLock's and means nothing to RedisLock\Semaphore
fencing: ValueError: RedisLock\Semaphore::__construct(): Argument #3 ($options) contains the option "fencing", which is RedisLock's and means nothing to RedisLock\Semaphore
quorum_timeout: ValueError: RedisLock\Semaphore::__construct(): Argument #3 ($options) contains the option "quorum_timeout", which is RedisLock's and means nothing to RedisLock\Semaphore
unknown option: ValueError: RedisLock\Semaphore::__construct(): Argument #3 ($options) contains unknown option "colour"
quorum list: ValueError: RedisLock\Semaphore::__construct(): Argument #3 ($options) option "servers" lists 3 servers, but RedisLock\Semaphore needs a single server: permits counted on independent masters cannot enforce one limit
negative wait: ValueError: RedisLock\Semaphore::acquire(): Argument #1 ($waitMs) must be greater than or equal to 0
negative wait in run: ValueError: RedisLock\Semaphore::run(): Argument #2 ($waitMs) must be greater than or equal to 0
negative ttl: ValueError: RedisLock\Semaphore::extend(): Argument #1 ($ttlMs) must be between 0 and 2147483647
forceRelease empty name: ValueError: RedisLock\Semaphore::forceRelease(): Argument #1 ($name) must not be empty
forceRelease fair: ValueError: RedisLock\Semaphore::forceRelease(): Argument #2 ($options) contains the option "fair", which is RedisLock's and means nothing to RedisLock\Semaphore
constructed twice: Error: RedisLock\Semaphore object is already constructed
a valid call: ConnectionException
