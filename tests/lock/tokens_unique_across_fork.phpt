--TEST--
Tokens taken in forked children (and in their parent before and after the fork) are all distinct 32-hex-digit strings
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:tokens_unique_across_fork:';
$opts = ['servers' => RL_DSN, 'prefix' => $p . 'lock:'];
$children = 6;
$perChild = 5;

/* The parent takes one before forking, so every child starts from the same
 * process state. */
$mine = new RedisLock('parent', $opts);
var_dump($mine->acquire());
rl_admin()->cmd('RPUSH', $p . 'tokens', $mine->token());

$codes = rl_fork($children, function (int $i) use ($p, $opts, $perChild): int {
    $r = new RLClient();
    for ($k = 0; $k < $perChild; $k++) {
        $lock = new RedisLock("child$i:$k", $opts);
        if (!$lock->acquire()) {
            return 2;
        }
        if ($r->cmd('GET', $p . "lock:child$i:$k") !== $lock->token()) {
            return 3;
        }
        $r->cmd('RPUSH', $p . 'tokens', $lock->token());
        if (!$lock->release()) {
            return 4;
        }
    }
    return 0;
});
var_dump($codes === array_fill(0, $children, 0));

var_dump($mine->release());
var_dump($mine->acquire());
rl_admin()->cmd('RPUSH', $p . 'tokens', $mine->token());
var_dump($mine->release());

$tokens = rl_admin()->cmd('LRANGE', $p . 'tokens', '0', '-1');
var_dump(count($tokens) === $children * $perChild + 2);
var_dump(count(array_unique($tokens)) === count($tokens));
var_dump(count(preg_grep('/^[0-9a-f]{32}$/D', $tokens)) === count($tokens));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:tokens_unique_across_fork:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
