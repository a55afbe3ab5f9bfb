--TEST--
RateLimiter: a waiting consume sleeps until the server says the permits are due (no polling), and gives up at once when they cannot be due in time
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:ratelimit_wait:';
function commands(): int
{
    return RedisLock::stats()['commands'];
}
foreach (['gcra', 'fixed_window', 'sliding_window'] as $policy) {
    $l = new RedisLock\RateLimiter('job', 2, 300, ['servers' => RL_DSN, 'prefix' => $p, 'policy' => $policy]);
    $l->reset();
    $l->consume(2);
    /* Not due within 50 ms: false after one round trip (no sleep and try again). */
    $c = commands();
    $limited = RedisLock::stats()['rate_limited'];
    $late = $l->consume(1, 50);
    echo "$policy: ", var_export($late, true), ' after ', commands() - $c, ' command(s), retryAfter > 50: ',
        var_export($l->retryAfter() > 50, true), ', rate_limited +', RedisLock::stats()['rate_limited'] - $limited, "\n";
    /* Due within 5 s: taken after exactly two round trips, the second when the server said. */
    $c = commands();
    $ok = $l->consume(1, 5000);
    echo "  wait 5000: ", var_export($ok, true), ' after ', commands() - $c, ' commands, retryAfter ',
        $l->retryAfter(), "\n";
}
/* 4 forked workers wait for 1 permit each, under a limit of 1 per 100 ms:
 * all get theirs (each sleeps until due, again if another came first). */
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'policy' => 'gcra'];
(new RedisLock\RateLimiter('queue', 1, 100, $opts))->reset();
$codes = rl_fork(4, function () use ($opts): int {
    $l = new RedisLock\RateLimiter('queue', 1, 100, $opts);
    return $l->consume(1, 10000) ? 0 : 2;
});
var_dump($codes);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ratelimit_wait:');
?>
--EXPECT--
gcra: false after 1 command(s), retryAfter > 50: true, rate_limited +1
  wait 5000: true after 2 commands, retryAfter 0
fixed_window: false after 1 command(s), retryAfter > 50: true, rate_limited +1
  wait 5000: true after 2 commands, retryAfter 0
sliding_window: false after 1 command(s), retryAfter > 50: true, rate_limited +1
  wait 5000: true after 2 commands, retryAfter 0
array(4) {
  [0]=>
  int(0)
  [1]=>
  int(0)
  [2]=>
  int(0)
  [3]=>
  int(0)
}
