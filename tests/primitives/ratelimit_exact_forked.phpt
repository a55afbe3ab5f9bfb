--TEST--
RateLimiter: 8 forked workers racing for 100 permits take exactly 100, under each policy
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:ratelimit_exact_forked:';
$workers = 8;
$attempts = 20;
foreach (['gcra', 'fixed_window', 'sliding_window'] as $policy) {
    /* An hour's window: nothing comes free again while the test runs. */
    $opts = ['servers' => RL_DSN, 'prefix' => $p, 'policy' => $policy];
    (new RedisLock\RateLimiter('api', 100, 3600000, $opts))->reset();
    $codes = rl_fork($workers, function (int $i) use ($opts, $attempts): int {
        $limiter = new RedisLock\RateLimiter('api', 100, 3600000, $opts);
        $taken = 0;
        for ($n = 0; $n < $attempts; $n++) {
            /* Some take one permit, some take two at a time. */
            $taken += $limiter->consume($i % 2 + 1) ? $i % 2 + 1 : 0;
        }
        return 100 + $taken; /* 100 + permits taken: never 1 (the error exit) */
    });
    $total = array_sum(array_map(fn ($c) => $c - 100, $codes));
    $limiter = new RedisLock\RateLimiter('api', 100, 3600000, $opts);
    echo "$policy: taken $total, ", var_export($limiter->consume(), true), ', remaining ', $limiter->remaining(), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ratelimit_exact_forked:');
?>
--EXPECT--
gcra: taken 100, false, remaining 0
fixed_window: taken 100, false, remaining 0
sliding_window: taken 100, false, remaining 0
