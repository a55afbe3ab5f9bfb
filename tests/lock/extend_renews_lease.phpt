--TEST--
extend() resets the lease on the server and remaining(); extend($ms) sets an explicit lease; not-held extend() is false
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:extend_renews_lease:';
$key = $p . 'job';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 2000];
$lock = new RedisLock('job', $opts);

echo "not held:\n";
var_dump($lock->extend(), $lock->extend(5000));
var_dump(rl_admin()->cmd('EXISTS', $key));

echo "default ttl:\n";
var_dump($lock->acquire());
$token = $lock->token();
usleep(400000);
$pttlBefore = rl_admin()->cmd('PTTL', $key);
$remBefore = $lock->remaining();
var_dump($pttlBefore > 0 && $pttlBefore <= 1600);
var_dump($lock->extend());
$pttlAfter = rl_admin()->cmd('PTTL', $key);
$remAfter = $lock->remaining();
var_dump($pttlAfter > $pttlBefore && $pttlAfter <= 2000);
var_dump($remAfter > $remBefore && $remAfter <= 2000);
var_dump($lock->token() === $token && rl_admin()->cmd('GET', $key) === $token);

echo "explicit ttl:\n";
var_dump($lock->extend(30000));
$pttl = rl_admin()->cmd('PTTL', $key);
var_dump($pttl > 2000 && $pttl <= 30000);
$rem = $lock->remaining();
var_dump($rem > 2000 && $rem <= 30000);

echo "back to the lock's ttl:\n";
var_dump($lock->extend());
$pttl = rl_admin()->cmd('PTTL', $key);
var_dump($pttl > 0 && $pttl <= 2000);
var_dump($lock->remaining() <= 2000);

echo "not held by this object:\n";
$other = new RedisLock('job', $opts);
var_dump($other->extend());
var_dump(rl_admin()->cmd('GET', $key) === $token);

echo "after release:\n";
var_dump($lock->release());
var_dump($lock->extend(), $lock->remaining());
var_dump(rl_admin()->cmd('EXISTS', $key));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:extend_renews_lease:');
?>
--EXPECT--
not held:
bool(false)
bool(false)
int(0)
default ttl:
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
explicit ttl:
bool(true)
bool(true)
bool(true)
back to the lock's ttl:
bool(true)
bool(true)
bool(true)
not held by this object:
bool(false)
bool(true)
after release:
bool(true)
bool(false)
int(0)
int(0)
