--TEST--
RateLimiter: retryAfter() is never past the window's end, under every policy (fixed_window said 1501 for a 1500 ms window), and the permits are there when it says
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:ratelimit_retry_after_window:';
foreach (['fixed_window', 'sliding_window', 'gcra'] as $policy) {
    foreach ([1500, 1] as $window) {
        $l = new RedisLock\RateLimiter("$policy$window", 1, $window, ['servers' => RL_DSN, 'prefix' => $p, 'policy' => $policy]);
        $past = [];
        $refused = 0;
        /* The second call comes within the same millisecond as the first, most of the time. */
        for ($i = 0; $i < 10; $i++) {
            $l->reset();
            $l->consume();
            if (!$l->consume()) {
                $refused++;
                $r = $l->retryAfter();
                if ($r < 1 || $r > $window) {
                    $past[] = $r;
                }
            }
        }
        echo "$policy, $window ms: ", $past ? 'retryAfter() ' . implode(', ', array_unique($past)) : 'within the window', "\n";
    }
    /* Waiting what it says is enough. */
    $l = new RedisLock\RateLimiter("$policy-due", 2, 300, ['servers' => RL_DSN, 'prefix' => $p, 'policy' => $policy]);
    $l->consume(2);
    $taken = $l->consume();
    usleep($l->retryAfter() * 1000);
    var_dump($taken, $l->consume());
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ratelimit_retry_after_window:');
?>
--EXPECT--
fixed_window, 1500 ms: within the window
fixed_window, 1 ms: within the window
bool(false)
bool(true)
sliding_window, 1500 ms: within the window
sliding_window, 1 ms: within the window
bool(false)
bool(true)
gcra, 1500 ms: within the window
gcra, 1 ms: within the window
bool(false)
bool(true)
