--TEST--
Waiting: one release wakes one waiter (no thundering herd), and contention costs few commands per critical section
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_one_release_wakes_one:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 20000];
$a = rl_admin();
$blocked = fn() => (int) $a->info('clients', 'blocked_clients');
/* Valkey counts a BLPOP when it returns: the woken waiter's, after the
 * release, is not a wait begun. */
$woken = rl_cont_blpop_counted_on_return($a) ? 1 : 0;

echo "-- five waiters, one release\n";
/* The server knows the release script before we count. */
$warm = new RedisLock('warm-up', $opts + ['native_commands' => false]);
$warm->acquire();
$warm->release();
$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());
$pids = [];
for ($i = 0; $i < 5; $i++) {
    $pids[] = rl_cont_spawn(function () use ($p, $opts, $i): int {
        $c = new RLClient();
        $lock = new RedisLock('job', $opts);
        $before = RedisLock::stats()['waits'];
        if (!$lock->acquire(15000)) {
            return 2;
        }
        $c->cmd('RPUSH', $p . 'waits', (string) (RedisLock::stats()['waits'] - $before));
        if ($c->cmd('INCR', $p . 'got') === 1) {
            /* The first one keeps the lock until the parent has looked
             * (polling: a BLPOP here would count as a waiter). */
            rl_cont_until(fn() => $c->cmd('EXISTS', $p . 'go') === 1, 10000);
        }
        usleep(5000);
        return $lock->release() ? 0 : 3;
    });
}
/* All five have failed once and sleep in BLPOP. */
var_dump(rl_cont_until(fn() => $blocked() === 5, 20000));
$calls = rl_cont_calls($a);
var_dump($holder->release());
var_dump(rl_cont_until(fn() => $a->cmd('GET', $p . 'got') === '1', 10000));
usleep(300000);
$after = rl_cont_calls($a);
echo 'acquired by: ', $a->cmd('GET', $p . 'got'), " waiter\n";
echo 'still asleep: ', $blocked(), " waiters\n";
echo 'waits begun since the release: ', ($after['blpop'] ?? 0) - ($calls['blpop'] ?? 0) - $woken, "\n";
/* The release itself (a script that sets nothing beside the wake-up, or
 * natively DELIFEQ or DELEX, then plain commands for the wake-up), and
 * the woken waiter's one attempt: the SET NX it sent with its BLPOP (it
 * marked the lock as waited for before it slept). */
$releases = fn(array $c) => ($c['evalsha'] ?? 0) + ($c['eval'] ?? 0) + ($c['delifeq'] ?? 0) + ($c['delex'] ?? 0);
echo 'scripts run since the release: ', $releases($after) - $releases($calls), "\n";
echo 'SETs since the release: ', ($after['set'] ?? 0) - ($calls['set'] ?? 0), " (the waiter's)\n";

/* Let the rest go: each release hands over to one more waiter. */
$a->cmd('SET', $p . 'go', '1');
$codes = array_map('rl_cont_reap', $pids);
echo 'exit codes: ', implode(' ', $codes), "\n";
echo 'acquired by: ', $a->cmd('GET', $p . 'got'), " waiters\n";
echo 'times each waiter slept: ', implode(' ', $a->cmd('LRANGE', $p . 'waits', '0', '-1')), "\n";

echo "-- 4 workers contending, commands per critical section\n";
$srv = new RLServer();
$c = $srv->client();
$c->cmd('CONFIG', 'RESETSTAT');
$workers = 4;
$sections = rl_cont_memcheck() ? 10 : 25;
$codes = rl_fork($workers, function (int $i) use ($srv, $p, $sections): int {
    $lock = new RedisLock('job', ['servers' => $srv->dsn(), 'prefix' => $p, 'ttl' => 10000]);
    $before = RedisLock::stats()['commands'];
    for ($n = 0; $n < $sections; $n++) {
        if (!$lock->acquire(60000)) {
            return 2;
        }
        usleep(random_int(0, 2000));
        if (!$lock->release()) {
            return 3;
        }
    }
    /* The commands this worker sent (and the server answered). */
    (new RLClient())->cmd('RPUSH', $p . 'sent', (string) (RedisLock::stats()['commands'] - $before));
    return 0;
});
$calls = rl_cont_calls($c);
echo 'exit codes: ', implode(' ', $codes), "\n";
$per = array_sum(array_map('intval', $a->cmd('LRANGE', $p . 'sent', '0', '-1'))) / ($workers * $sections);
echo $per <= 6 ? "at most 6 commands per critical section\n" : "$per commands per critical section: " . json_encode($calls) . "\n";
$srv->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_one_release_wakes_one:');
?>
--EXPECT--
-- five waiters, one release
bool(true)
bool(true)
bool(true)
bool(true)
acquired by: 1 waiter
still asleep: 4 waiters
waits begun since the release: 0
scripts run since the release: 1
SETs since the release: 1 (the waiter's)
exit codes: 0 0 0 0 0
acquired by: 5 waiters
times each waiter slept: 1 1 1 1 1
-- 4 workers contending, commands per critical section
exit codes: 0 0 0 0
at most 6 commands per critical section
