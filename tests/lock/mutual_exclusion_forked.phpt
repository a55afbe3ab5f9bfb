--TEST--
Forked workers doing a non-atomic read-modify-write under the lock never lose an update
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:mutual_exclusion_forked:';
$workers = 4;
$iterations = 25;
rl_admin()->cmd('SET', $p . 'counter', '0');
rl_admin()->cmd('SET', $p . 'inside', '0');
rl_admin()->cmd('SET', $p . 'overlaps', '0');

$codes = rl_fork($workers, function (int $i) use ($p, $iterations): int {
    $r = new RLClient();
    $lock = new RedisLock('counter', ['servers' => RL_DSN, 'prefix' => $p . 'lock:', 'ttl' => 30000]);
    for ($n = 0; $n < $iterations; $n++) {
        if (!$lock->acquire(60000)) {
            return 2;
        }
        /* Nobody else may be between acquire() and release() right now. */
        if ($r->cmd('INCR', $p . 'inside') !== 1) {
            $r->cmd('INCR', $p . 'overlaps');
        }
        $v = (int) $r->cmd('GET', $p . 'counter');
        usleep(500);
        $r->cmd('SET', $p . 'counter', (string) ($v + 1));
        $r->cmd('DECR', $p . 'inside');
        if (!$lock->release()) {
            return 3;
        }
    }
    return 0;
});

var_dump($codes === array_fill(0, $workers, 0));
var_dump((int) rl_admin()->cmd('GET', $p . 'counter') === $workers * $iterations);
var_dump(rl_admin()->cmd('GET', $p . 'overlaps'));
var_dump(rl_admin()->cmd('EXISTS', $p . 'lock:counter'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:mutual_exclusion_forked:');
?>
--EXPECT--
bool(true)
bool(true)
string(1) "0"
int(0)
