--TEST--
Waiting: a waiter is woken by the release and gets the lock before a competitor that polls
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_wakeup_beats_polling:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$a = rl_admin();

for ($r = 0; $r < 5; $r++) {
    $name = "job$r";
    $key = $p . $name;
    $holder = new RedisLock($name, $opts);
    $held = $holder->acquire();

    /* W waits with RedisLock: one failed attempt, then it sleeps until woken. */
    $w = rl_cont_spawn(function () use ($p, $r, $name, $opts): int {
        $c = new RLClient();
        $lock = new RedisLock($name, $opts);
        $before = RedisLock::stats();
        if (!$lock->acquire(5000)) {
            return 2;
        }
        $c->cmd('RPUSH', $p . "order$r", 'W');
        $after = RedisLock::stats();
        $c->cmd('RPUSH', $p . "waits$r", (string) ($after['waits'] - $before['waits']));
        usleep(20000);
        return $lock->release() ? 0 : 3;
    });
    /* The holder sees W's mark only after W's attempt failed. */
    $marked = rl_cont_until(fn() => $a->cmd('EXISTS', $key . ':redislock-wait') === 1, 10000);

    /* P polls: SET NX PX every 50 ms, telling after each miss. */
    $poller = rl_cont_spawn(function () use ($p, $r, $key): int {
        $c = new RLClient();
        for ($i = 0; $i < 200; $i++) {
            $token = bin2hex(random_bytes(16));
            if ($c->cmd('SET', $key, $token, 'NX', 'PX', '10000') === 'OK') {
                $c->cmd('RPUSH', $p . "order$r", 'P');
                if ($c->cmd('GET', $key) === $token) {
                    $c->cmd('DEL', $key);
                }
                return 0;
            }
            $c->cmd('RPUSH', $p . "missed$r", (string) $i);
            usleep(50000);
        }
        return 2;
    });

    /* Release just after one of P's misses: P now sleeps, W was woken. */
    $missed = $a->cmd('BLPOP', $p . "missed$r", '4') !== null;
    usleep(random_int(0, 10000));
    $released = $holder->release();
    $codes = [rl_cont_reap($w), rl_cont_reap($poller)];

    echo "round $r: ", json_encode([$held, $marked, $missed, $released, $codes]), ' ',
        implode(' then ', $a->cmd('LRANGE', $p . "order$r", '0', '-1')),
        ', W waited ', $a->cmd('LINDEX', $p . "waits$r", '0'), " time(s)\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_wakeup_beats_polling:');
?>
--EXPECT--
round 0: [true,true,true,true,[0,0]] W then P, W waited 1 time(s)
round 1: [true,true,true,true,[0,0]] W then P, W waited 1 time(s)
round 2: [true,true,true,true,[0,0]] W then P, W waited 1 time(s)
round 3: [true,true,true,true,[0,0]] W then P, W waited 1 time(s)
round 4: [true,true,true,true,[0,0]] W then P, W waited 1 time(s)
