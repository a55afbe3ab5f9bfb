--TEST--
SIGTERM with a handler of PHP code (pcntl_signal), set before or after the lock is taken: PHP's handler runs, the extension writes no release of its own
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!function_exists('pcntl_signal')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/../sigterm.inc';
$p = 'rltest:sigterm_php_handler_untouched:';
$admin = rl_admin();

/* Sets a SIGTERM handler before or after taking the lock ($argv[3]); the
 * handler tells whether the lock is still held on the servers, then the
 * script ends normally (the lock is released at request end). */
const HOLDER = <<<'PHP'
[, $dsn, $prefix, $when] = $argv;
$handler = function () use (&$lock) {
    echo 'PHP handler ran, lock still held: ', var_export($lock->isAcquired(), true), "\n";
    exit(0);
};
pcntl_async_signals(true);
if ($when === 'before') {
    pcntl_signal(SIGTERM, $handler);
}
$lock = new RedisLock('job-' . $when, ['servers' => $dsn, 'prefix' => $prefix, 'ttl' => 60000]);
if (!$lock->acquire()) {
    exit(3);
}
if ($when === 'after') {
    pcntl_signal(SIGTERM, $handler);
}
echo $lock->token(), "\n";
sleep(30);
echo "not killed\n";
PHP;

foreach (['before', 'after'] as $when) {
    $c = rl_sigterm_start(HOLDER, [RL_DSN, $p, $when]);
    echo "$when: held ", var_export($admin->cmd('GET', $p . "job-$when") === $c['line'], true), "\n";
    rl_kill($c['pid'], SIGTERM);
    $end = rl_sigterm_end($c);
    echo "$when: ", isset($end['exit']) ? "exit {$end['exit']}" : 'signal ' . ($end['signal'] ?? '?'), ": {$end['output']}\n";
    echo "$when: released at request end: ", var_export($admin->cmd('EXISTS', $p . "job-$when") === 0, true), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sigterm_php_handler_untouched:');
?>
--EXPECT--
before: held true
before: exit 0: PHP handler ran, lock still held: true
before: released at request end: true
after: held true
after: exit 0: PHP handler ran, lock still held: true
after: released at request end: true
