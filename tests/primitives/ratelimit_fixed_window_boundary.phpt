--TEST--
RateLimiter fixed_window: $limit per window from its first permit, the counter always with its expiry, all free when it ends
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:ratelimit_fixed_window_boundary:';
$key = $p . 'ip:10.0.0.1:redislock-fixed_window';
$l = new RedisLock\RateLimiter('ip:10.0.0.1', 3, 1000, ['servers' => RL_DSN, 'prefix' => $p, 'policy' => 'fixed_window']);
var_dump($l->consume(), $l->remaining());
$pttl = rl_admin()->cmd('PTTL', $key);
var_dump(rl_admin()->cmd('GET', $key), $pttl > 0 && $pttl <= 1000);
/* 1 + 3 > 3: refused, and nothing counted. */
var_dump($l->consume(3), $l->remaining(), rl_admin()->cmd('GET', $key));
var_dump($l->consume(2), $l->remaining());
$pttl = rl_admin()->cmd('PTTL', $key);
var_dump($l->consume());
/* Due when the window ends: the counter's expiry (at that ms the window has ended, though the key is there). */
$after = $l->retryAfter();
var_dump($after > 0 && $after <= $pttl);
/* A counter left without expiry (by another client) is given one. */
rl_admin()->cmd('PERSIST', $key);
var_dump($l->consume(), $l->retryAfter() === 1000, rl_admin()->cmd('PTTL', $key) > 0);
/* When the window has ended, all three are free again. */
for ($i = 0; $i < 300 && rl_admin()->cmd('EXISTS', $key) === 1; $i++) {
    usleep(10000);
}
var_dump($l->consume(3), $l->remaining());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ratelimit_fixed_window_boundary:');
?>
--EXPECT--
bool(true)
int(2)
string(1) "1"
bool(true)
bool(false)
int(2)
string(1) "1"
bool(true)
int(0)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
int(0)
