--TEST--
Shared holds: forked workers, 90% reads, never see a writer's half-done update (writers write A then B; readers, holding shared, always read A == B) and readers do overlap
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_no_overlap_workers:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$a->cmd('SET', $p . 'A', '0');
$a->cmd('SET', $p . 'B', '0');
$codes = rl_fork(6, function (int $w) use ($p, $o): int {
    $c = new RLClient();
    $l = new RedisLock('n', $o);
    mt_srand($w + 1);
    for ($i = 0; $i < 150; $i++) {
        if (mt_rand(0, 9) > 0) {
            if (!$l->acquireRead(10000)) {
                return 2;
            }
            $c->cmd('INCR', $p . 'readers');
            $max = (int) $c->cmd('GET', $p . 'readers');
            if ($max > 1) {
                $c->cmd('SET', $p . 'overlapped', '1');
            }
            $x = $c->cmd('GET', $p . 'A');
            usleep(500);
            $y = $c->cmd('GET', $p . 'B');
            $c->cmd('DECR', $p . 'readers');
            if ($x !== $y) {
                $c->cmd('INCR', $p . 'torn');
            }
        } else {
            if (!$l->acquire(10000)) {
                return 3;
            }
            if ((int) $c->cmd('GET', $p . 'readers') !== 0) {
                $c->cmd('INCR', $p . 'torn');
            }
            $v = (int) $c->cmd('GET', $p . 'A') + 1;
            $c->cmd('SET', $p . 'A', (string) $v);
            usleep(1000);
            $c->cmd('SET', $p . 'B', (string) $v);
        }
        if (!$l->release()) {
            return 4;
        }
    }
    return 0;
});
var_dump($codes === array_fill(0, 6, 0), $a->cmd('GET', $p . 'torn'), $a->cmd('GET', $p . 'overlapped'));
var_dump((int) $a->cmd('GET', $p . 'A') > 0, $a->cmd('GET', $p . 'A') === $a->cmd('GET', $p . 'B'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_no_overlap_workers:');
?>
--EXPECT--
bool(true)
NULL
string(1) "1"
bool(true)
bool(true)
