--TEST--
Semaphore: a process killed by SIGTERM gives its permits back at once (plain TCP and unix socket): a hold alone in the holder key, holds beside others in the sorted set, weighted or not; one with auto_release off is kept
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../sigterm.inc';
$p = 'rltest:sem_sigterm_releases:';
$admin = rl_admin();

/* Takes the holds named in $argv[3...] ("name:weight", "name:weight:keep"
 * for auto_release off) of semaphores of limit 4 with a ttl of a minute,
 * prints their tokens, sleeps. */
const HOLDER = <<<'PHP'
[, $dsn, $prefix] = $argv;
$tokens = [];
foreach (array_slice($argv, 3) as $spec) {
    [$name, $weight, $how] = explode(':', $spec . ':');
    $s = new RedisLock\Semaphore($name, 4, ['servers' => $dsn, 'prefix' => $prefix, 'ttl' => 60000,
        'weight' => (int) $weight, 'auto_release' => $how !== 'keep']);
    if (!$s->acquire()) {
        exit(3);
    }
    $GLOBALS['held'][] = $s;
    $tokens[] = $s->token();
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
    $o = ['servers' => $dsn, 'prefix' => $p];
    $sem = fn(string $name) => new RedisLock\Semaphore("$kind-$name", 4, $o);
    $holder = fn(string $name) => $admin->cmd('GET', $p . "$kind-$name:redislock-semaphore:redislock-holder");
    /* "beside": the test holds a permit first, so the child's holds go into
     * the sorted set beside it. */
    $mine = $sem('beside');
    $mine->acquire();
    $c = rl_sigterm_start(HOLDER, [$dsn, $p, "$kind-alone:3", "$kind-beside:1", "$kind-beside:2",
        "$kind-kept:1:keep"]);
    $tokens = explode(',', $c['line']);
    echo "$kind: held ", json_encode([count($tokens), $holder('alone') === $tokens[0] . ':3',
        $holder('beside'), $sem('alone')->available(), $sem('beside')->available(), $sem('kept')->available()]), "\n";
    rl_kill($c['pid'], SIGTERM);
    $end = rl_sigterm_end($c);
    echo "$kind: ended by signal ", $end['signal'] ?? 'none', $end['output'] !== '' ? " ({$end['output']})" : '', "\n";
    $free = rl_sigterm_until(fn() => $sem('alone')->available() === 4 && $sem('beside')->available() === 3);
    echo "$kind: released: ", json_encode([$free, $holder('alone'), $sem('alone')->available(),
        $sem('beside')->available()]), "\n";
    echo "$kind: auto_release off kept: ", json_encode([$sem('kept')->available(), $holder('kept') === $tokens[3] . ':1']), "\n";
    echo "$kind: the rest: ", json_encode([$mine->release(), $sem('beside')->available()]), "\n";
}
if (!isset($dsns['unix'])) {
    echo "unix: held [4,true,\"+\",1,0,3]\nunix: ended by signal 15\nunix: released: [true,null,4,3]\n",
        "unix: auto_release off kept: [3,true]\nunix: the rest: [true,4]\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_sigterm_releases:');
?>
--EXPECT--
tcp: held [4,true,"+",1,0,3]
tcp: ended by signal 15
tcp: released: [true,null,4,3]
tcp: auto_release off kept: [3,true]
tcp: the rest: [true,4]
unix: held [4,true,"+",1,0,3]
unix: ended by signal 15
unix: released: [true,null,4,3]
unix: auto_release off kept: [3,true]
unix: the rest: [true,4]
