--TEST--
Waiting: once a process knows a lock stays marked as waited for, a waiting acquire (by the same object or a new one) blocks at once (BLPOP and SET, no script); it still gets a lock left free, and a holder that dies costs it no more than a lease
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_blind_after_release:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$a = rl_admin();
$blocked = fn() => (int) $a->info('clients', 'blocked_clients');
/* Scripts, and the native compare-and-delete a release runs instead where
 * the server has one (engine/native.h). */
$scripts = fn(array $calls) => ($calls['evalsha'] ?? 0) + ($calls['eval'] ?? 0) + ($calls['delifeq'] ?? 0)
    + ($calls['delex'] ?? 0);
/* The release script in the server's cache before anything is counted (a
 * release that finds the lock waited for runs it, where the releases before
 * may all have been native). */
$warm = new RedisLock('warm', $opts + ['native_commands' => false]);
$warm->acquire();
$warm->release();

/* B takes the lock, lets A (this process) wait for it, then waits for it
 * itself: A's release wakes B. After that B does what $then says. */
function rl_blind_b(string $p, array $opts, string $then): int
{
    return rl_cont_spawn(function () use ($p, $opts, $then): int {
        $c = new RLClient();
        $lock = new RedisLock('job', $opts);
        if (!$lock->acquire()) {
            return 2;
        }
        rl_cont_until(fn() => (int) $c->info('clients', 'blocked_clients') === 1, 10000);
        $lock->release();
        if (!$lock->acquire(10000)) {
            return 3;
        }
        $c->cmd('RPUSH', $p . 'b', 'woken');
        if ($then === 'die') {
            sleep(20); /* killed long before */
        }
        usleep($then === 'hold' ? 300000 : 0);
        return $lock->release() ? 0 : 4;
    });
}

foreach (['hold', 'release at once', 'die', 'hold, A acquires with a new object'] as $case) {
    echo "-- B then: $case\n";
    $a->cmd('DEL', $p . 'job', $p . 'b');
    $lock = new RedisLock('job', $case === 'die' ? ['ttl' => 500] + $opts : $opts);
    $b = rl_blind_b($p, $case === 'die' ? ['ttl' => 500] + $opts : $opts, explode(',', $case)[0]);
    /* A waits for B's lock (its attempts mark the lock as waited for), and
     * holds it while B blocks. */
    var_dump(rl_cont_until(fn() => $a->cmd('EXISTS', $p . 'job') === 1, 10000));
    var_dump($lock->acquire(10000));
    var_dump(rl_cont_until(fn() => $blocked() === 1, 10000));
    var_dump($lock->release());
    var_dump($a->cmd('BLPOP', $p . 'b', '5'));
    if ($case === 'die') {
        rl_kill($b, SIGKILL);
    } elseif ($case === 'release at once') {
        var_dump(rl_cont_until(fn() => $a->cmd('EXISTS', $p . 'job') === 0, 10000));
    }
    $before = rl_cont_calls($a);
    $sent = RedisLock::stats()['commands'];
    if (str_contains($case, 'new object')) {
        /* As every request does under PHP-FPM: what the old object learnt
         * of the lock, the process knows. */
        $lock = new RedisLock('job', $opts);
    }
    $t0 = hrtime(true);
    var_dump($lock->acquire(10000));
    $ms = rl_cont_ms($t0);
    $after = rl_cont_calls($a);
    if ($case !== 'die') {
        /* A's acquire was one write of two commands: BLPOP, and the SET NX
         * the server ran when it returned. The scripts run meanwhile are B's. */
        echo 'commands A sent: ', RedisLock::stats()['commands'] - $sent, "\n";
        echo 'scripts run: ', $scripts($after) - $scripts($before), "\n";
        echo 'BLPOPs: ', ($after['blpop'] ?? 0) - ($before['blpop'] ?? 0), "\n";
    }
    if (str_starts_with($case, 'hold')) {
        echo $ms >= 150 ? "waited for B's release\n" : "did not wait: $ms ms\n";
    } elseif ($case === 'release at once') {
        /* B's release found no one blocked: its wake-up waited in the list. */
        echo $ms < 5000 ? "at once\n" : "after $ms ms\n";
    } else {
        /* Nobody announces a lease that runs out: A's first block lasts no
         * longer than half its own ttl (500 ms); the attempts after it find
         * out how long B's lease has left. */
        echo $ms < 500 + 1500 ? "soon after B's lease ran out\n" : "after $ms ms\n";
    }
    echo 'exit code of B: ', rl_cont_reap($b), "\n";
    var_dump($lock->release());
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_blind_after_release:');
?>
--EXPECT--
-- B then: hold
bool(true)
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  string(33) "rltest:wait_blind_after_release:b"
  [1]=>
  string(5) "woken"
}
bool(true)
commands A sent: 2
scripts run: 1
BLPOPs: 1
waited for B's release
exit code of B: 0
bool(true)
-- B then: release at once
bool(true)
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  string(33) "rltest:wait_blind_after_release:b"
  [1]=>
  string(5) "woken"
}
bool(true)
bool(true)
commands A sent: 2
scripts run: 0
BLPOPs: 1
at once
exit code of B: 0
bool(true)
-- B then: die
bool(true)
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  string(33) "rltest:wait_blind_after_release:b"
  [1]=>
  string(5) "woken"
}
bool(true)
soon after B's lease ran out
exit code of B: -1
bool(true)
-- B then: hold, A acquires with a new object
bool(true)
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  string(33) "rltest:wait_blind_after_release:b"
  [1]=>
  string(5) "woken"
}
bool(true)
commands A sent: 2
scripts run: 1
BLPOPs: 1
waited for B's release
exit code of B: 0
bool(true)
