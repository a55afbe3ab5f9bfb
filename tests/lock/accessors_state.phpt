--TEST--
isAcquired(), remaining() and token() before, during and after a hold
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:accessors_state:';
$key = $p . 'job';
$lock = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000]);

echo "before:\n";
var_dump($lock->isAcquired(), $lock->remaining(), $lock->token());

echo "during:\n";
var_dump($lock->acquire());
$token = $lock->token();
var_dump(preg_match('/^[0-9a-f]{32}$/D', $token));
var_dump(rl_admin()->cmd('GET', $key) === $token);
$rem = $lock->remaining();
var_dump($rem > 0 && $rem <= 5000);
var_dump($lock->isAcquired());
var_dump($lock->token() === $token);

echo "after:\n";
var_dump($lock->release());
var_dump($lock->isAcquired(), $lock->remaining(), $lock->token());

echo "a new hold has a new token:\n";
var_dump($lock->acquire());
$token2 = $lock->token();
var_dump(preg_match('/^[0-9a-f]{32}$/D', $token2), $token2 !== $token);
var_dump(rl_admin()->cmd('GET', $key) === $token2);

echo "lost behind its back:\n";
rl_admin()->cmd('DEL', $key);
var_dump($lock->isAcquired(), $lock->remaining());
var_dump($lock->release());
var_dump($lock->isAcquired(), $lock->remaining(), $lock->token());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:accessors_state:');
?>
--EXPECT--
before:
bool(false)
int(0)
NULL
during:
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
after:
bool(true)
bool(false)
int(0)
NULL
a new hold has a new token:
bool(true)
int(1)
bool(true)
bool(true)
lost behind its back:
bool(false)
int(0)
bool(false)
bool(false)
int(0)
NULL
