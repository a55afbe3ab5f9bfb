--TEST--
Fencing: every grant gets a larger number, across objects, processes and a holder's expiry
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:fence_increases:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'fencing' => true];
$a = rl_admin();

echo "-- one after the other\n";
$x = new RedisLock('seq', $opts);
$y = new RedisLock('seq', $opts);
$fences = [];
foreach ([$x, $y, $x, $y, $y] as $lock) {
    $lock->acquire();
    $fences[] = $lock->fence();
    $lock->release();
}
echo json_encode(array_map('is_int', $fences)), "\n";
$sorted = $fences;
sort($sorted);
echo 'strictly increasing: ', json_encode(array_values(array_unique($fences)) === $fences && $sorted === $fences), "\n";
echo 'counter matches the last: ', json_encode((int) $a->cmd('GET', $p . 'seq:redislock-fence') === end($fences)), "\n";

echo "-- forked workers under contention\n";
$workers = 4;
$each = rl_cont_memcheck() ? 10 : 25;
$codes = rl_fork($workers, function (int $i) use ($p, $opts, $each): int {
    $c = new RLClient();
    $lock = new RedisLock('shared', $opts);
    for ($n = 0; $n < $each; $n++) {
        if (!$lock->acquire(60000)) {
            return 2;
        }
        /* Pushed while holding: the list is in order of acquisition. */
        $c->cmd('RPUSH', $p . 'fences', (string) $lock->fence());
        if (!$lock->release()) {
            return 3;
        }
    }
    return 0;
});
echo 'exit codes: ', implode(' ', $codes), "\n";
$list = array_map('intval', $a->cmd('LRANGE', $p . 'fences', '0', '-1'));
echo 'count: ', count($list) === $workers * $each ? 'all' : count($list), "\n";
echo 'distinct: ', json_encode(count(array_unique($list)) === count($list)), "\n";
$ordered = true;
for ($i = 1; $i < count($list); $i++) {
    $ordered = $ordered && $list[$i] > $list[$i - 1];
}
echo 'strictly increasing in order of acquisition: ', json_encode($ordered), "\n";

echo "-- fair mode\n";
$codes = rl_fork(3, function (int $i) use ($p, $opts, $each): int {
    $c = new RLClient();
    $lock = new RedisLock('fair', ['fair' => true] + $opts);
    for ($n = 0; $n < $each; $n++) {
        if (!$lock->acquire(60000)) {
            return 2;
        }
        $c->cmd('RPUSH', $p . 'fair-fences', (string) $lock->fence());
        if (!$lock->release()) {
            return 3;
        }
    }
    return 0;
});
echo 'exit codes: ', implode(' ', $codes), "\n";
$list = array_map('intval', $a->cmd('LRANGE', $p . 'fair-fences', '0', '-1'));
echo 'numbered 1 to ', count($list) === 3 * $each && $list === range(1, 3 * $each) ? 'the number of grants' : json_encode($list), "\n";

echo "-- across an expiry\n";
$old = new RedisLock('lease', ['ttl' => 200] + $opts);
$new = new RedisLock('lease', $opts);
var_dump($old->acquire());
$f1 = $old->fence();
var_dump(rl_cont_until(fn() => $a->cmd('EXISTS', $p . 'lease') === 0, 5000));
var_dump($new->acquire());
$f2 = $new->fence();
echo 'new holder\'s fence is larger: ', json_encode(is_int($f1) && is_int($f2) && $f2 > $f1), "\n";
/* The old holder has not found out yet. */
echo 'old holder still reports its own: ', json_encode($old->fence() === $f1), "\n";
var_dump($old->release());
var_dump($old->fence());
echo 'new holder unaffected: ', json_encode($new->fence() === $f2), "\n";
var_dump($new->release());
var_dump($new->fence());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fence_increases:');
?>
--EXPECT--
-- one after the other
[true,true,true,true,true]
strictly increasing: true
counter matches the last: true
-- forked workers under contention
exit codes: 0 0 0 0
count: all
distinct: true
strictly increasing in order of acquisition: true
-- fair mode
exit codes: 0 0 0
numbered 1 to the number of grants
-- across an expiry
bool(true)
bool(true)
bool(true)
new holder's fence is larger: true
old holder still reports its own: true
bool(false)
NULL
new holder unaffected: true
bool(true)
NULL
