--TEST--
Bad input: a name that would make a key over 512 MB, or an Atomic value over 512 MB, is a ValueError before it is copied or sent (not a memory-limit fatal error, nor a connection error), for every class and entry point
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
memory_limit=640M
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:bad_input_over_512mb:';
$opts = ['servers' => RL_DSN, 'prefix' => $p];
/* One byte over what Redis takes (its proto-max-bulk-len, 512 MB): as a value, and with the prefix as a key.
 * The memory limit leaves room for this string, not for a copy of it. */
$big = str_repeat('n', 512 * 1024 * 1024 + 1);
$calls = [
    'new RedisLock' => fn () => new RedisLock($big, $opts),
    'RedisLock::restore' => fn () => RedisLock::restore($big, str_repeat('a', 32), $opts),
    'RedisLock::forceRelease' => fn () => RedisLock::forceRelease($big, $opts),
    'new RateLimiter (gcra)' => fn () => new RedisLock\RateLimiter($big, 10, 1000, $opts),
    'new RateLimiter (sliding_window)' => fn () => new RedisLock\RateLimiter($big, 10, 1000, $opts + ['policy' => 'sliding_window']),
    'new Atomic' => fn () => new RedisLock\Atomic($big, $opts),
    /* A name may take 512 MB less the prefix and what the extension adds to make its keys (64 bytes). */
    'new RedisLock, a prefix that leaves no room' => fn () => new RedisLock('x', ['servers' => RL_DSN, 'prefix' => $big]),
    'new Atomic, a prefix that leaves no room' => fn () => new RedisLock\Atomic('x', ['servers' => RL_DSN, 'prefix' => $big]),
];
if (class_exists('RedisLock\ZooKeeperLock')) {
    $calls['new ZooKeeperLock'] = fn () => new RedisLock\ZooKeeperLock($big);
}
$a = new RedisLock\Atomic('doc', $opts);
$calls += [
    'Atomic::compareAndSet, new value' => fn () => $a->compareAndSet(null, $big),
    'Atomic::compareAndSet, expected value' => fn () => $a->compareAndSet($big, 'x'),
    'Atomic::update' => fn () => $a->update(fn () => $big),
];
foreach ($calls as $what => $fn) {
    try {
        $fn();
        echo "$what: no error\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), str_contains($e->getMessage(), '536870912') || $e instanceof ValueError && str_contains($what, 'ZooKeeper') ? '' : ': ' . $e->getMessage(), "\n";
    }
}
/* Nothing was written. */
var_dump($a->get(), memory_get_peak_usage() < 600 * 1024 * 1024);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:bad_input_over_512mb:');
?>
--EXPECT--
new RedisLock: ValueError
RedisLock::restore: ValueError
RedisLock::forceRelease: ValueError
new RateLimiter (gcra): ValueError
new RateLimiter (sliding_window): ValueError
new Atomic: ValueError
new RedisLock, a prefix that leaves no room: ValueError
new Atomic, a prefix that leaves no room: ValueError
new ZooKeeperLock: ValueError
Atomic::compareAndSet, new value: ValueError
Atomic::compareAndSet, expected value: ValueError
Atomic::update: ValueError
NULL
bool(true)
