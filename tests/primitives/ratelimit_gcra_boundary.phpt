--TEST--
RateLimiter gcra: a burst of $limit, then one permit per window/limit, as the server's answers say
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:ratelimit_gcra_boundary:';
/* 4 per 2 s: one permit every 500 ms, bursts up to 4. */
$l = new RedisLock\RateLimiter('login', 4, 2000, ['servers' => RL_DSN, 'prefix' => $p]);
var_dump($l->remaining(), $l->retryAfter()); /* nothing known yet */
$seen = [];
for ($i = 0; $i < 4; $i++) {
    $seen[] = [$l->consume(), $l->remaining(), $l->retryAfter()];
}
echo json_encode($seen), "\n";
var_dump($l->consume());
$r1 = $l->retryAfter();
var_dump($r1 > 0 && $r1 <= 500, $l->remaining());
/* Two permits are due one interval (500 ms) after one permit. */
var_dump($l->consume(2));
$r2 = $l->retryAfter();
var_dump($r2 - $r1 > 300 && $r2 - $r1 <= 501);
/* The one key is the prefix, the name and the policy, with an expiry. */
var_dump(rl_admin()->cmd('PTTL', $p . 'login:redislock-gcra') > 0);
/* After the time the server gave, one permit is there, and only one. */
usleep($r1 * 1000);
var_dump($l->consume(), $l->remaining(), $l->consume());
/* consume($limit) when all are free again. */
$l->reset();
var_dump($l->consume(4), $l->remaining(), $l->consume());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ratelimit_gcra_boundary:');
?>
--EXPECT--
int(4)
int(0)
[[true,3,0],[true,2,0],[true,1,0],[true,0,0]]
bool(false)
bool(true)
int(0)
bool(false)
bool(true)
bool(true)
bool(true)
int(0)
bool(false)
bool(true)
int(0)
bool(false)
