--TEST--
Quorum: an acquire right after a release that woke a waiter skips the marking round: it blocks on every server at once (BLPOP and SET), and is woken by the other's release
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
require __DIR__ . '/../quorum.inc';
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
$body = fn(string $name) => file_get_contents(__DIR__ . "/../../lua/$name.lua");
$scriptsKnown = ['acquire' => $body('acquire'), 'release' => $body('release')];
$shas = array_map('sha1', $scriptsKnown);
/* A script in the log: its SHA1 (EVALSHA) or its body's first 128 bytes
 * (EVAL, as a release kept for later goes). */
$is = fn(string $arg, string $name) => $arg === $shas[$name]
    || str_starts_with($scriptsKnown[$name], substr($arg, 0, 64));
$logStart = function () use ($servers): void {
    foreach ($servers as $s) {
        $c = $s->client();
        $c->cmd('CONFIG', 'SET', 'slowlog-max-len', '100000');
        $c->cmd('CONFIG', 'SET', 'slowlog-log-slower-than', '0');
        $c->cmd('SLOWLOG', 'RESET');
    }
};
/* The scripts the servers have run since $logStart(): [acquire.lua's,
 * release.lua's, others]. */
$logScripts = function () use ($servers, $is): array {
    $n = [0, 0, 0];
    foreach ($servers as $s) {
        foreach ($s->client()->cmd('SLOWLOG', 'GET', '-1') as $entry) {
            $args = $entry[3];
            if (in_array(strtolower($args[0]), ['evalsha', 'eval'], true)) {
                $n[$is($args[1], 'acquire') ? 0 : ($is($args[1], 'release') ? 1 : 2)]++;
            }
        }
    }
    return $n;
};

/* B takes the lock, lets A (this process) wait for it, then waits for it
 * itself, is woken by A's release, and holds the lock until it sees A
 * blocked on every server. It then looks at the scripts the servers have
 * run since A began to acquire: A's first write went out without the
 * marking round. 200 ms later it releases. */
$b = rl_cont_spawn(function () use ($p, $opts, $servers, $blockedOnAll, $logScripts): int {
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
    [$marking] = $logScripts();
    $admin->cmd('RPUSH', $p . 'b', "marking scripts run before A blocked: $marking");
    usleep(200000);
    return $lock->release() ? 0 : 4;
});
$lock = new RedisLock('job', $opts);
var_dump(rl_cont_until(fn() => $first->cmd('EXISTS', $p . 'job') === 1, 10000));
var_dump($lock->acquire(10000));
var_dump(rl_cont_until(fn() => $blocked() === 1, 10000));
var_dump($lock->release());
var_dump($a->cmd('BLPOP', $p . 'b', '5')[1]);
$logStart();
$t0 = hrtime(true);
var_dump($lock->acquire(10000));
$ms = rl_cont_ms($t0);
/* One write to each server, BLPOP and the SET NX behind it: no marking
 * script (B counted them while A was blocked). What runs after B's release
 * depends on how fast the servers' wake-ups reach A: B's releases, and if
 * A gave up on a server whose wake-up came late, A's release of what its
 * SET may have taken there (or, with a minority, A's return to the marking
 * script). */
var_dump($a->cmd('BLPOP', $p . 'b', '5')[1]);
var_dump($a->cmd('BLPOP', $p . 'b', '5')[1]);
[, $releases, $others] = $logScripts();
echo 'other scripts than ours: ', $others, "\n";
/* A was woken by them: they ran on a majority before its acquire returned. */
echo 'releases run: ', $releases >= 2 ? 'on a majority at least' : $releases, "\n";
echo $ms >= 150 ? "waited for B's release\n" : "did not wait: $ms ms\n";
echo 'exit code of B: ', rl_cont_reap($b), "\n";
var_dump($lock->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
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
string(39) "marking scripts run before A blocked: 0"
other scripts than ours: 0
releases run: on a majority at least
waited for B's release
exit code of B: 0
bool(true)
