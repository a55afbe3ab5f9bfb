--TEST--
Waiting: a release racing the start of a wait is never lost (the waiter never sleeps out its wait)
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_no_lost_wakeup:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$rounds = 200;
$a = rl_admin();

/* The waiter reaches the server through a proxy. While the key "hold" is
 * set, the proxy keeps the waiter's next BLPOP back, says so, and passes
 * it on only when told: the holder's release then lands exactly between
 * the waiter's failed attempt and the start of its wait. */
[$proxy, $proxyPort] = rl_cont_proxy(RL_PORT, function (string $bytes) use ($p): void {
    static $c;
    $c ??= new RLClient();
    if (str_contains($bytes, 'BLPOP') && $c->cmd('DEL', $p . 'hold') === 1) {
        $c->cmd('RPUSH', $p . 'blpop-held', '1');
        $c->cmd('BLPOP', $p . 'pass-on', '4');
    }
});

/* The waiter: one acquire(3000) per round, on a lock the parent holds
 * (ttl 10 s), reporting "round acquired elapsed-ms". A lost wake-up would
 * leave it asleep for its whole wait and return false. */
$waiter = rl_cont_spawn(function () use ($p, $opts, $rounds, $proxyPort): int {
    $c = new RLClient();
    $opts['servers'] = "redis://127.0.0.1:$proxyPort";
    for ($r = 0; $r < $rounds; $r++) {
        if ($c->cmd('BLPOP', $p . 'go', '4') === null) {
            return 2;
        }
        $lock = new RedisLock("job$r", $opts);
        $t0 = hrtime(true);
        $ok = $lock->acquire(3000);
        $ms = rl_cont_ms($t0);
        if ($ok) {
            $lock->release();
        }
        $c->cmd('RPUSH', $p . 'result', sprintf('%d %d %.1f', $r, $ok, $ms));
    }
    return 0;
});

$problems = [];
$forced = 0;
for ($r = 0; $r < $rounds; $r++) {
    $holder = new RedisLock("job$r", $opts);
    if (!$holder->acquire()) {
        $problems[] = "round $r: holder could not acquire";
        break;
    }
    $hold = $r % 2 === 0;
    if ($hold) {
        $a->cmd('SET', $p . 'hold', '1');
    }
    $a->cmd('RPUSH', $p . 'go', (string) $r);
    if ($hold) {
        /* Even rounds: release while the waiter's BLPOP is held back. */
        $marked = $a->cmd('BLPOP', $p . 'blpop-held', '4') !== null;
        $released = $holder->release();
        $a->cmd('RPUSH', $p . 'pass-on', '1');
        $forced += $marked && $released;
    } else {
        /* Odd rounds: release 0-2 ms after the waiter's failed attempt
         * (which marks the lock as waited for): before, while or after the
         * waiter starts sleeping. */
        $marked = rl_cont_until(fn() => $a->cmd('EXISTS', $p . "job$r:redislock-wait") === 1, 10000);
        usleep(random_int(0, 2000));
        $released = $holder->release();
    }
    $res = $a->cmd('BLPOP', $p . 'result', '4');
    if (!$marked || !$released || $res === null) {
        $problems[] = "round $r: " . json_encode([$marked, $released, $res]);
        break;
    }
    [$round, $ok, $ms] = explode(' ', $res[1]);
    if ((int) $round !== $r || $ok !== '1' || (float) $ms >= 2000) {
        $problems[] = "round $r: waiter reported {$res[1]}";
    }
}
$code = rl_cont_reap($waiter);
rl_cont_proxy_stop($proxy);

echo "waiter exit code $code\n";
echo "rounds with the release between the failed attempt and the wait: ", $forced === $rounds / 2 ? 'half' : $forced, "\n";
echo $problems ? implode("\n", $problems) . "\n" : "every waiter got the lock well before its wait or the ttl ran out\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_no_lost_wakeup:');
?>
--EXPECT--
waiter exit code 0
rounds with the release between the failed attempt and the wait: half
every waiter got the lock well before its wait or the ttl ran out
