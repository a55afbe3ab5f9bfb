--TEST--
RateLimiter::reset() forgets all consumption of the name and policy, and only that
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:ratelimit_reset:';
foreach (['gcra', 'fixed_window', 'sliding_window'] as $policy) {
    $opts = ['servers' => RL_DSN, 'prefix' => $p, 'policy' => $policy];
    $a = new RedisLock\RateLimiter('a', 3, 60000, $opts);
    $b = new RedisLock\RateLimiter('b', 3, 60000, $opts);
    $a->consume(3);
    $b->consume(3);
    var_dump($a->consume());
    $a->reset();
    echo "$policy: after reset remaining ", $a->remaining(), ', retryAfter ', $a->retryAfter(), ', key ',
        rl_admin()->cmd('EXISTS', $p . "a:redislock-$policy"), "\n";
    var_dump($a->consume(3), $b->consume());
    $b->reset();
}
/* A lock of the same name is a different key. */
$lock = new RedisLock('a', ['servers' => RL_DSN, 'prefix' => $p]);
var_dump($lock->acquire());
(new RedisLock\RateLimiter('a', 3, 60000, ['servers' => RL_DSN, 'prefix' => $p]))->reset();
var_dump($lock->isAcquired(), $lock->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ratelimit_reset:');
?>
--EXPECT--
bool(false)
gcra: after reset remaining 3, retryAfter 0, key 0
bool(true)
bool(false)
bool(false)
fixed_window: after reset remaining 3, retryAfter 0, key 0
bool(true)
bool(false)
bool(false)
sliding_window: after reset remaining 3, retryAfter 0, key 0
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
