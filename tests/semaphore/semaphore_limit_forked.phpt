--TEST--
Semaphore: under 8 forked workers with mixed weights, the permits held at once never exceed the limit, and every worker gets in
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_limit_forked:';
$a = rl_admin();
$rounds = rl_cont_memcheck() ? 4 : 25;
/* Each worker takes 1, 2 or 3 permits of 5, adds its weight to a counter
 * inside the section and records the highest total it saw. */
$codes = rl_fork(8, function (int $i) use ($p, $rounds): int {
    $c = new RLClient();
    $weight = 1 + $i % 3;
    $s = new RedisLock\Semaphore('pool', 5, ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000, 'weight' => $weight]);
    for ($r = 0; $r < $rounds; $r++) {
        if (!$s->acquire(20000)) {
            return 2;
        }
        $now = $c->cmd('INCRBY', $p . 'inside', (string) $weight);
        $c->cmd('EVAL', "if tonumber(redis.call('get', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('set', KEYS[1], ARGV[1]) end", '1', $p . 'max', (string) $now);
        usleep(random_int(500, 3000));
        $c->cmd('DECRBY', $p . 'inside', (string) $weight);
        if (!$s->release()) {
            return 3;
        }
        $c->cmd('INCR', $p . 'sections');
    }
    return 0;
});
echo 'codes ', json_encode($codes), "\n";
echo 'sections ', $a->cmd('GET', $p . 'sections') == 8 * $rounds ? 'all' : $a->cmd('GET', $p . 'sections'), "\n";
$max = (int) $a->cmd('GET', $p . 'max');
echo 'highest total held ', $max <= 5 ? 'within the limit' : "$max over the limit", ($max >= 4 ? ', and the limit was used' : ", only $max"), "\n";
echo 'inside now ', $a->cmd('GET', $p . 'inside'), ', available ', (new RedisLock\Semaphore('pool', 5, ['servers' => RL_DSN, 'prefix' => $p]))->available(), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_limit_forked:');
?>
--EXPECT--
codes [0,0,0,0,0,0,0,0]
sections all
highest total held within the limit, and the limit was used
inside now 0, available 5
