--TEST--
Atomic::increment() with a lower bound: 8 forked workers decrementing a stock of 100 succeed exactly 100 times, and the stock ends at 0
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:atomic_stock_forked:';
$opts = ['servers' => RL_DSN, 'prefix' => $p];
rl_admin()->cmd('SET', $p . 'stock', '100');
$codes = rl_fork(8, function () use ($opts): int {
    $a = new RedisLock\Atomic('stock', $opts);
    $sold = 0;
    for ($n = 0; $n < 20; $n++) {
        $left = $a->increment(-1, 0);
        if ($left !== false) {
            if ($left < 0) {
                return 2;
            }
            $sold++;
        }
    }
    return 100 + $sold;
});
var_dump(array_sum(array_map(fn ($c) => $c - 100, $codes)));
var_dump(rl_admin()->cmd('GET', $p . 'stock'));
$a = new RedisLock\Atomic('stock', $opts);
var_dump($a->increment(-1, 0), $a->get());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:atomic_stock_forked:');
?>
--EXPECT--
int(100)
string(1) "0"
bool(false)
string(1) "0"
