--TEST--
Quorum: an acquire right after a release that woke a waiter skips the marking round: it blocks on every server at once (BLPOP and SET), and is woken by the other's release
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/contention.inc';
require __DIR__ . '/quorum.inc';
$p = 'rltest:quorum_wait_blind:';
$servers = rl_quorum_servers(3);
$opts = rl_quorum_opts($servers, $p, ['ttl' => 10000]);
$a = rl_admin();
$first = $servers[0]->client();
$blocked = fn() => (int) $first->info('clients', 'blocked_clients');
$blockedOnAll = function () use ($servers): bool {
    foreach ($servers as $s) {
        if ((int) $s->client()->info('clients', 'blocked_clients') !== 1) {
            return false;
        }
    }
    return true;
};
/* Every command the servers run is logged (with its arguments), so that
 * the scripts run can be told apart: the marking script is acquire.lua. */
$lua = __DIR__ . '/../lua/';
/* A script in the log: its SHA1 (EVALSHA) or its body's first 128 bytes
 * (EVAL, as a release kept for later goes). */
$is = fn(string $arg, string $name) => $arg === sha1_file($lua . "$name.lua")
    || str_starts_with(file_get_contents($lua . "$name.lua"), substr($arg, 0, 64));
$log = function (bool $start) use ($servers): array {
    $scripts = [];
    foreach ($servers as $s) {
        $c = $s->client();
        if ($start) {
            $c->cmd('CONFIG', 'SET', 'slowlog-max-len', '10000');
            $c->cmd('CONFIG', 'SET', 'slowlog-log-slower-than', '0');
            $c->cmd('SLOWLOG', 'RESET');
            continue;
        }
        foreach ($c->cmd('SLOWLOG', 'GET', '-1') as $entry) {
            $args = $entry[3];
            if (in_array(strtolower($args[0]), ['evalsha', 'eval'], true)) {
                $scripts[] = $args[1];
            }
        }
        $c->cmd('CONFIG', 'SET', 'slowlog-log-slower-than', '10000');
    }
    return $scripts;
};

/* B takes the lock, lets A (this process) wait for it, then waits for it
 * itself, is woken by A's release, holds the lock until it sees A blocked
 * on every server and 200 ms more, and releases it. */
$b = rl_cont_spawn(function () use ($p, $opts, $servers, $blockedOnAll): int {
    $c = $servers[0]->client();
    $lock = new RedisLock('job', $opts);
    if (!$lock->acquire()) {
        return 2;
    }
    rl_cont_until(fn() => (int) $c->info('clients', 'blocked_clients') === 1, 10000);
    $lock->release();
    if (!$lock->acquire(10000)) {
        return 3;
    }
    $admin = new RLClient();
    $admin->cmd('RPUSH', $p . 'b', 'woken');
    $admin->cmd('RPUSH', $p . 'b', rl_cont_until($blockedOnAll, 10000) ? 'A blocked on every server' : 'A not blocked on every server');
    usleep(200000);
    return $lock->release() ? 0 : 4;
});
$lock = new RedisLock('job', $opts);
var_dump(rl_cont_until(fn() => $first->cmd('EXISTS', $p . 'job') === 1, 10000));
var_dump($lock->acquire(10000));
var_dump(rl_cont_until(fn() => $blocked() === 1, 10000));
var_dump($lock->release());
var_dump($a->cmd('BLPOP', $p . 'b', '5')[1]);
$log(true);
$t0 = hrtime(true);
var_dump($lock->acquire(10000));
$ms = rl_cont_ms($t0);
$scripts = $log(false);
/* One write to each server, BLPOP and the SET NX behind it: no marking
 * script. The scripts run meanwhile are B's release, one on each server
 * (and, if A gave up on a server whose wake-up came late, A's release of
 * what its SET may have taken there). */
var_dump($a->cmd('BLPOP', $p . 'b', '5')[1]);
$marking = count(array_filter($scripts, fn($s) => $is($s, 'acquire')));
$releases = count(array_filter($scripts, fn($s) => $is($s, 'release')));
echo 'marking scripts run: ', $marking, "\n";
echo 'other scripts than releases: ', count($scripts) - $marking - $releases, "\n";
/* A was woken by them: they ran on a majority before its acquire returned. */
echo 'releases run: ', $releases >= 2 ? 'on a majority at least' : $releases, "\n";
echo $ms >= 150 ? "waited for B's release\n" : "did not wait: $ms ms\n";
echo 'exit code of B: ', rl_cont_reap($b), "\n";
var_dump($lock->release());
?>
--CLEAN--
<?php
require __DIR__ . '/core.inc';
rl_core_clean('rltest:quorum_wait_blind:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
string(5) "woken"
bool(true)
string(25) "A blocked on every server"
marking scripts run: 0
other scripts than releases: 0
releases run: on a majority at least
waited for B's release
exit code of B: 0
bool(true)
