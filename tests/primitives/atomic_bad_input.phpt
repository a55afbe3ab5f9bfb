--TEST--
Atomic: bad arguments and options are ValueError/TypeError naming them, before anything is sent; $fn must return ?string or int
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
/* Nothing listens here: an error of any other kind would mean something was sent. */
$down = ['servers' => 'redis://127.0.0.1:' . rl_free_port(), 'connect_timeout' => 100];
function check(callable $fn): void
{
    try {
        $fn();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
use RedisLock\Atomic;
check(fn () => new Atomic('', $down));
check(fn () => new Atomic('k', $down + ['ttl' => 5]));
check(fn () => new Atomic('k', $down + ['policy' => 'gcra']));
check(fn () => new Atomic('k', $down + ['prefix' => 5]));
check(fn () => new Atomic('k', [0 => 'x']));
check(fn () => new Atomic('k', ['servers' => 'redis://127.0.0.1:1,redis://127.0.0.1:2']));
$a = new Atomic('k', $down);
check(fn () => $a->compareAndSet(null, 'x', 0));
check(fn () => $a->compareAndSet(null, 'x', -1));
check(fn () => $a->compareAndSet(null, 'x', 2147483648));
check(fn () => $a->compareAndSet([], 'x'));
check(fn () => $a->update(fn ($v) => $v, -1));
check(fn () => $a->update(fn ($v) => $v, 1, 0));
check(fn () => $a->update('no such function'));
check(fn () => $a->increment(1, 5, 4));
check(fn () => $a->increment(1, null, null, 0));
check(fn () => $a->increment('x'));
/* What $fn returns is checked before anything is written. */
$srv = new RLServer();
$b = new Atomic('k', ['servers' => $srv->dsn()]);
check(fn () => $b->update(fn ($v) => ['x']));
check(fn () => $b->update(fn ($v) => 1.5));
var_dump($b->get());
var_dump($b->update(fn ($v) => 41 + 1), $b->update(fn ($v) => null), $b->get());
?>
--EXPECT--
ValueError: RedisLock\Atomic::__construct(): Argument #1 ($key) must not be empty
ValueError: RedisLock\Atomic::__construct(): Argument #2 ($options) contains the option "ttl", which is RedisLock's and means nothing to RedisLock\Atomic
ValueError: RedisLock\Atomic::__construct(): Argument #2 ($options) contains unknown option "policy"
TypeError: RedisLock\Atomic::__construct(): Argument #2 ($options) option "prefix" must be of type string, int given
ValueError: RedisLock\Atomic::__construct(): Argument #2 ($options) must only have string keys (option names)
ValueError: RedisLock\Atomic::__construct(): Argument #2 ($options) option "servers" lists 2 servers, but RedisLock\Atomic needs a single server: a value kept on independent masters could differ from one to the next
ValueError: RedisLock\Atomic::compareAndSet(): Argument #3 ($ttlMs) must be null or between 1 and 2147483647
ValueError: RedisLock\Atomic::compareAndSet(): Argument #3 ($ttlMs) must be null or between 1 and 2147483647
ValueError: RedisLock\Atomic::compareAndSet(): Argument #3 ($ttlMs) must be null or between 1 and 2147483647
TypeError: RedisLock\Atomic::compareAndSet(): Argument #1 ($expected) must be of type ?string, array given
ValueError: RedisLock\Atomic::update(): Argument #2 ($retries) must be greater than or equal to 0
ValueError: RedisLock\Atomic::update(): Argument #3 ($ttlMs) must be null or between 1 and 2147483647
TypeError: RedisLock\Atomic::update(): Argument #1 ($fn) must be a valid callback, function "no such function" not found or invalid function name
ValueError: RedisLock\Atomic::increment(): Argument #3 ($max) must be greater than or equal to argument #2 ($min)
ValueError: RedisLock\Atomic::increment(): Argument #4 ($ttlMs) must be null or between 1 and 2147483647
TypeError: RedisLock\Atomic::increment(): Argument #1 ($by) must be of type int, string given
TypeError: RedisLock\Atomic::update(): Argument #1 ($fn) must return ?string (or int), array returned
TypeError: RedisLock\Atomic::update(): Argument #1 ($fn) must return ?string (or int), float returned
NULL
string(2) "42"
NULL
NULL
