--TEST--
Atomic::increment(): the new value, or false changing nothing (value, absence, expiry) when a bound would be crossed; a value that is not an integer is an error
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:atomic_increment_bounds:';
$key = $p . 'n';
$a = new RedisLock\Atomic('n', ['servers' => RL_DSN, 'prefix' => $p]);
var_dump($a->increment(-1, 0), rl_admin()->cmd('EXISTS', $key)); /* absent is 0: refused, still absent */
var_dump($a->increment());                     /* 1 */
var_dump($a->increment(4, null, 5));           /* 5: the bound itself is allowed */
var_dump($a->increment(1, null, 5));           /* 6 > 5 */
var_dump($a->increment(-5, 0), $a->increment(-1, 0)); /* 0, then -1 < 0 */
var_dump($a->increment(10, 0, 10, 30000));     /* expiry set with a change */
$pttl = rl_admin()->cmd('PTTL', $key);
var_dump($a->increment(1, 0, 10, 99999999), rl_admin()->cmd('PTTL', $key) <= $pttl); /* refused: expiry untouched */
var_dump($a->increment(-3), rl_admin()->cmd('PTTL', $key) > 0); /* null ttl keeps the expiry */
var_dump($a->increment(0, 8, 9));              /* already outside the bounds: refused */
/* Exact at the ends of the 64-bit range. */
rl_admin()->cmd('SET', $key, (string) (PHP_INT_MAX - 1));
var_dump($a->increment(1, null, PHP_INT_MAX) === PHP_INT_MAX);
var_dump($a->increment(1, null, PHP_INT_MAX)); /* would overflow past the bound: false */
var_dump($a->increment(-1, PHP_INT_MAX) === false, $a->get() === (string) PHP_INT_MAX);
rl_admin()->cmd('SET', $key, (string) PHP_INT_MIN);
var_dump($a->increment(-1, PHP_INT_MIN), $a->increment(1, PHP_INT_MIN + 1) === PHP_INT_MIN + 1);
foreach (['abc', '1.5', '', ' 1', '99999999999999999999'] as $bad) {
    rl_admin()->cmd('SET', $key, $bad);
    try {
        var_dump($a->increment(1, 0));
    } catch (RedisLockException $e) {
        echo json_encode($bad), ': ', get_class($e), ' ', $e->getCode(), ', ',
            str_contains($e->getMessage(), 'not an integer') ? 'not an integer' : $e->getMessage(),
            ', unchanged: ', var_export(rl_admin()->cmd('GET', $key) === $bad, true), "\n";
    }
}
/* Overflow with no bound on that side: an error, nothing changed. */
rl_admin()->cmd('SET', $key, (string) PHP_INT_MAX);
try {
    $a->increment(1);
} catch (RedisLockException $e) {
    echo get_class($e), ': ', str_contains($e->getMessage(), 'overflow') ? 'overflow' : $e->getMessage(), "\n";
}
var_dump($a->get() === (string) PHP_INT_MAX);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:atomic_increment_bounds:');
?>
--EXPECT--
bool(false)
int(0)
int(1)
int(5)
bool(false)
int(0)
bool(false)
int(10)
bool(false)
bool(true)
int(7)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
"abc": RedisLockException 3, not an integer, unchanged: true
"1.5": RedisLockException 3, not an integer, unchanged: true
"": RedisLockException 3, not an integer, unchanged: true
" 1": RedisLockException 3, not an integer, unchanged: true
"99999999999999999999": RedisLockException 3, not an integer, unchanged: true
RedisLockException: overflow
bool(true)
