--TEST--
Bad method arguments throw ValueError/TypeError before anything is sent
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
declare(strict_types=1);
require __DIR__ . '/../config.inc';
/* Nothing listens there: a call that sent anything would throw
 * RedisLockException ("cannot connect") instead. */
$l = new RedisLock('job', ['servers' => 'redis://127.0.0.1:' . rl_free_port(), 'prefix' => 'rltest:bad_input_methods:']);
$calls = [
    'acquire(-1)' => fn() => $l->acquire(-1),
    'acquire(PHP_INT_MIN)' => fn() => $l->acquire(PHP_INT_MIN),
    'acquire("soon")' => fn() => $l->acquire('soon'),
    'acquire(1.5)' => fn() => $l->acquire(1.5),
    'acquire(null)' => fn() => $l->acquire(null),
    'run(fn, -1)' => fn() => $l->run(fn() => 'ran', -1),
    'run("not callable")' => fn() => $l->run('not callable'),
    'run([], 0)' => fn() => $l->run([], 0),
    'run()' => fn() => $l->run(),
    'extend(0)' => fn() => $l->extend(0),
    'extend(-1)' => fn() => $l->extend(-1),
    'extend(2147483648)' => fn() => $l->extend(2147483648),
    'extend("1000")' => fn() => $l->extend('1000'),
    'release(1)' => fn() => $l->release(1),
    'isAcquired(true)' => fn() => $l->isAcquired(true),
    'remaining(1)' => fn() => $l->remaining(1),
    'token(1)' => fn() => $l->token(1),
    'stats(1)' => fn() => RedisLock::stats(1),
];
$before = RedisLock::stats();
foreach ($calls as $what => $call) {
    try {
        echo "$what: ";
        var_dump($call());
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
$after = RedisLock::stats();
var_dump($after == $before);

/* While held: a bad extend() leaves the lease as it was. */
$key = 'rltest:bad_input_methods:held';
$h = new RedisLock('held', ['servers' => RL_DSN, 'prefix' => 'rltest:bad_input_methods:', 'ttl' => 5000]);
var_dump($h->acquire());
foreach ([0, 2147483648] as $ttl) {
    try {
        $h->extend($ttl);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
$pttl = rl_admin()->cmd('PTTL', $key);
var_dump($pttl > 0 && $pttl <= 5000, rl_admin()->cmd('GET', $key) === $h->token());
try {
    $h->run(fn() => 'ran', -5);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($h->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('DEL', 'rltest:bad_input_methods:held');
?>
--EXPECT--
acquire(-1): ValueError: RedisLock::acquire(): Argument #1 ($waitMs) must be greater than or equal to 0
acquire(PHP_INT_MIN): ValueError: RedisLock::acquire(): Argument #1 ($waitMs) must be greater than or equal to 0
acquire("soon"): TypeError: RedisLock::acquire(): Argument #1 ($waitMs) must be of type int, string given
acquire(1.5): TypeError: RedisLock::acquire(): Argument #1 ($waitMs) must be of type int, float given
acquire(null): TypeError: RedisLock::acquire(): Argument #1 ($waitMs) must be of type int, null given
run(fn, -1): ValueError: RedisLock::run(): Argument #2 ($waitMs) must be greater than or equal to 0
run("not callable"): TypeError: RedisLock::run(): Argument #1 ($fn) must be a valid callback, function "not callable" not found or invalid function name
run([], 0): TypeError: RedisLock::run(): Argument #1 ($fn) must be a valid callback, array callback must have exactly two members
run(): ArgumentCountError: RedisLock::run() expects at least 1 argument, 0 given
extend(0): ValueError: RedisLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
extend(-1): ValueError: RedisLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
extend(2147483648): ValueError: RedisLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
extend("1000"): TypeError: RedisLock::extend(): Argument #1 ($ttlMs) must be of type ?int, string given
release(1): ArgumentCountError: RedisLock::release() expects exactly 0 arguments, 1 given
isAcquired(true): ArgumentCountError: RedisLock::isAcquired() expects exactly 0 arguments, 1 given
remaining(1): ArgumentCountError: RedisLock::remaining() expects exactly 0 arguments, 1 given
token(1): ArgumentCountError: RedisLock::token() expects exactly 0 arguments, 1 given
stats(1): ArgumentCountError: RedisLock::stats() expects exactly 0 arguments, 1 given
bool(true)
bool(true)
RedisLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
RedisLock::extend(): Argument #1 ($ttlMs) must be between 1 and 2147483647
bool(true)
bool(true)
RedisLock::run(): Argument #2 ($waitMs) must be greater than or equal to 0
bool(true)
