--TEST--
Atomic::update(): 8 forked workers incrementing one value through GET, $fn and compareAndSet lose no update
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:atomic_update_forked:';
$workers = 8;
$iterations = 25;
$opts = ['servers' => RL_DSN, 'prefix' => $p];
$codes = rl_fork($workers, function (int $i) use ($opts, $iterations, $p): int {
    $a = new RedisLock\Atomic('counter', $opts);
    for ($n = 0; $n < $iterations; $n++) {
        $a->update(fn (?string $v) => (string) ((int) $v + 1), 1000);
    }
    /* Each worker's counters, for the parent to add up. */
    $s = RedisLock::stats();
    $r = new RLClient();
    $r->cmd('INCRBY', $p . 'conflicts', (string) $s['atomic_conflicts']);
    $r->cmd('INCRBY', $p . 'retries', (string) $s['atomic_retries']);
    return 0;
});
var_dump($codes === array_fill(0, $workers, 0));
var_dump(rl_admin()->cmd('GET', $p . 'counter'));
/* Every conflict was followed by a retry, since none ran out of retries. */
var_dump(rl_admin()->cmd('GET', $p . 'conflicts') === rl_admin()->cmd('GET', $p . 'retries'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:atomic_update_forked:');
?>
--EXPECT--
bool(true)
string(3) "200"
bool(true)
