--TEST--
RateLimiter gcra: exact over the whole accepted range of limit and window (no rounding of the emission interval, down to 2^-31 us: no ERR invalid expire time; remaining() counts exactly)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:ratelimit_gcra_exact:';
/* [limit, windowMs, permits]: on a fresh limiter, consume(permits) leaves exactly limit - permits. */
$cases = [
    [2147483647, 1, 1],            /* 2^31 - 1 permits a millisecond: an interval of 1/2147483.647 us */
    [2147483647, 1, 2147483646],
    [8001, 1, 1],                  /* just past 8,000 a millisecond */
    [999983, 7, 5],
    [2147483647, 2147483647, 1],   /* the longest window, the largest limit */
    [2147483647, 2147483647, 1000000007],
    [1000000, 2147483647, 3],
    [1500000000, 3, 1499999999],
    [7, 60000, 2],                 /* an interval that is no whole number of us */
    [3, 1000, 1],
];
foreach ($cases as $i => [$limit, $window, $permits]) {
    $l = new RedisLock\RateLimiter("c$i", $limit, $window, ['servers' => RL_DSN, 'prefix' => $p]);
    try {
        $taken = $l->consume($permits);
        echo "$limit/$window ms, consume($permits): ", var_export($taken, true), ', ',
            $l->remaining() === $limit - $permits ? 'exactly' : 'not', " limit - permits left\n";
    } catch (RedisLockException $e) {
        echo "$limit/$window ms, consume($permits): ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
/* Spent: the next permit is due one interval on, whatever the rate. */
$l = new RedisLock\RateLimiter('spent', 7, 60000, ['servers' => RL_DSN, 'prefix' => $p]);
var_dump($l->consume(7), $l->consume(), $l->remaining());
$r = $l->retryAfter();
var_dump($r > 8500 && $r <= 8572); /* 60000 / 7 = 8571.43 ms, less the time since */
/* The state is a number to any reader: microseconds, with the fraction of one. */
var_dump(preg_match('/^\d{16}\.\d{10}$/', rl_admin()->cmd('GET', $p . 'spent:redislock-gcra')));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ratelimit_gcra_exact:');
?>
--EXPECT--
2147483647/1 ms, consume(1): true, exactly limit - permits left
2147483647/1 ms, consume(2147483646): true, exactly limit - permits left
8001/1 ms, consume(1): true, exactly limit - permits left
999983/7 ms, consume(5): true, exactly limit - permits left
2147483647/2147483647 ms, consume(1): true, exactly limit - permits left
2147483647/2147483647 ms, consume(1000000007): true, exactly limit - permits left
1000000/2147483647 ms, consume(3): true, exactly limit - permits left
1500000000/3 ms, consume(1499999999): true, exactly limit - permits left
7/60000 ms, consume(2): true, exactly limit - permits left
3/1000 ms, consume(1): true, exactly limit - permits left
bool(true)
bool(false)
int(0)
bool(true)
int(1)
