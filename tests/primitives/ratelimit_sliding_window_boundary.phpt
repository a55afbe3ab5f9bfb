--TEST--
RateLimiter sliding_window: no more than $limit in any window, across the boundary where a fixed window would allow a double burst
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:ratelimit_sliding_window_boundary:';
$l = new RedisLock\RateLimiter('send', 3, 1000, ['servers' => RL_DSN, 'prefix' => $p, 'policy' => 'sliding_window']);
var_dump($l->consume());
usleep(400000);
var_dump($l->consume(2), $l->remaining(), $l->consume());
/* Due when the first permit leaves the window: less than 1000 - 400 ms from now. */
$first = $l->retryAfter();
var_dump($first > 0 && $first <= 600);
/* Two are due only when the two taken later leave as well. */
var_dump($l->consume(2));
var_dump($l->retryAfter() - $first > 300);
usleep($first * 1000);
/* One left the window: one permit, not two. */
var_dump($l->consume(2), $l->consume(), $l->remaining(), $l->consume());
/* One member per consume() that took permits in the window (consume(2), consume()), whatever it took. */
var_dump(rl_admin()->cmd('ZCARD', $p . 'send:redislock-sliding_window'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ratelimit_sliding_window_boundary:');
?>
--EXPECT--
bool(true)
bool(true)
int(0)
bool(false)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
int(0)
bool(false)
int(2)
