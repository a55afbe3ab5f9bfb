--TEST--
Fencing: fence() is null without fencing, and null whenever the lock is not held
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:fence_disabled_null:';
$a = rl_admin();

echo "-- fencing off (the default)\n";
$off = new RedisLock('plain', ['servers' => RL_DSN, 'prefix' => $p]);
var_dump($off->fence());
var_dump($off->acquire());
var_dump($off->fence());
var_dump($off->acquire(1000)); /* renewing */
var_dump($off->fence());
var_dump($off->release());
var_dump($a->cmd('EXISTS', $p . 'plain:redislock-fence'));
$w = new RedisLock('plain', ['servers' => RL_DSN, 'prefix' => $p, 'fencing' => false]);
var_dump($w->acquire(1000), $w->fence(), $w->release());

echo "-- fencing on\n";
$on = new RedisLock('fenced', ['servers' => RL_DSN, 'prefix' => $p, 'fencing' => true]);
$other = new RedisLock('fenced', ['servers' => RL_DSN, 'prefix' => $p, 'fencing' => true]);
var_dump($on->fence());
var_dump($on->acquire());
$f = $on->fence();
var_dump(is_int($f) && $f > 0);
/* A refused attempt does not touch the holder's number, nor give one. */
var_dump($other->acquire(), $other->fence());
var_dump($on->fence() === $f);
/* Renewing the hold keeps its number. */
var_dump($on->acquire(), $on->fence() === $f);
var_dump($on->release());
var_dump($on->fence());
var_dump($a->cmd('GET', $p . 'fenced:redislock-fence') === (string) $f);

echo "-- type of the option\n";
try {
    new RedisLock('x', ['servers' => RL_DSN, 'fencing' => 1]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fence_disabled_null:');
?>
--EXPECT--
-- fencing off (the default)
NULL
bool(true)
NULL
bool(true)
NULL
bool(true)
int(0)
bool(true)
NULL
bool(true)
-- fencing on
NULL
bool(true)
bool(true)
bool(false)
NULL
bool(true)
bool(true)
bool(true)
bool(true)
NULL
bool(true)
-- type of the option
RedisLock::__construct(): Argument #2 ($options) option "fencing" must be of type bool, int given
