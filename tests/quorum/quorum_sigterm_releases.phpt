--TEST--
Quorum: a process killed by SIGTERM while holding a lock over three servers releases it on every server
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
require __DIR__ . '/../sigterm.inc';
$prefix = 'rltest:quorum_sigterm_releases:';
$servers = rl_quorum_servers(3);

const HOLDER = <<<'PHP'
[, $dsn, $prefix] = $argv;
$lock = new RedisLock('job', ['servers' => $dsn, 'prefix' => $prefix, 'ttl' => 60000, 'quorum_timeout' => 2000]);
if (!$lock->acquire()) {
    exit(3);
}
echo $lock->token(), "\n";
sleep(30);
echo "not killed\n";
PHP;

$c = rl_sigterm_start(HOLDER, [rl_quorum_dsn($servers), $prefix]);
echo 'held on every server: ', var_export(rl_quorum_values($servers, $prefix . 'job') === array_fill(0, 3, $c['line']), true), "\n";
rl_kill($c['pid'], SIGTERM);
$end = rl_sigterm_end($c);
echo 'ended by signal ', $end['signal'] ?? 'none', "\n";
echo 'released on every server: ', var_export(rl_sigterm_until(
    fn() => rl_quorum_values($servers, $prefix . 'job') === [null, null, null]), true), "\n";
?>
--EXPECT--
held on every server: true
ended by signal 15
released on every server: true
