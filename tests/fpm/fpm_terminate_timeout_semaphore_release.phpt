--TEST--
php-fpm: a worker terminated by request_terminate_timeout (SIGTERM from the master) gives its Semaphore permits back at once, well within their ttl
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../fpm.inc';
if ($why = rl_fpm_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../fpm.inc';
$p = 'rltest:fpm_terminate_timeout_semaphore_release:';
$admin = rl_admin();
$fpm = new RLFpm(1, ['redislock.servers' => RL_DSN, 'redislock.prefix' => $p], ['request_terminate_timeout' => '1s']);
/* Takes 2 of the 3 permits for a minute, tells the test its pid through
 * Redis, then runs far past request_terminate_timeout. */
$fpm->script('hold.php', <<<'PHP'
<?php
$sem = new RedisLock\Semaphore('pool', 3, ['ttl' => 60000, 'weight' => 2]);
if (!$sem->acquire()) {
    exit('busy');
}
$k = $_GET['prefix'] . 'pid';
$v = (string) getmypid();
$s = stream_socket_client('tcp://127.0.0.1:' . (int) $_GET['port'], $errno, $errstr, 5);
fwrite($s, "*3\r\n\$3\r\nSET\r\n\$" . strlen($k) . "\r\n$k\r\n\$" . strlen($v) . "\r\n$v\r\n");
fgets($s);
sleep(30);
echo 'not terminated';
PHP);
$fpm->script('take.php', <<<'PHP'
<?php
$sem = new RedisLock\Semaphore('pool', 3, ['weight' => 3]);
echo json_encode([getmypid(), $sem->acquire(), $sem->release()]);
PHP);
$sem = new RedisLock\Semaphore('pool', 3, ['servers' => RL_DSN, 'prefix' => $p]);

$h = $fpm->begin('hold.php', ['prefix' => $p, 'port' => RL_PORT]);
$pid = null;
rl_fpm_until(function () use ($admin, $p, &$pid) {
    $pid = $admin->cmd('GET', $p . 'pid');
    return $pid !== null;
}, 10000);
$pid = (int) $pid;
echo 'worker reported its pid: ', var_export($fpm->workers() === [$pid], true), "\n";
echo 'permits held: ', var_export($sem->available() === 1, true), "\n";

/* The master ends the worker by itself (about a second into the request). */
echo 'worker gone: ', var_export(rl_fpm_until(fn() => !rl_fpm_alive($pid), 15000), true), "\n";
echo 'response: ', var_export($fpm->finish($h, 5000), true), "\n";
$log = (string) @file_get_contents($fpm->dir . '/fpm.log');
echo 'master terminated it: ', var_export(str_contains($log, "child $pid, script")
    && str_contains($log, 'execution timed out') && str_contains($log, "child $pid exited on signal 15 (SIGTERM)"), true), "\n";
/* Released by the dying worker: back within seconds of a 60 s ttl. */
echo 'released: ', var_export(rl_fpm_until(fn() => $sem->available() === 3, 5000), true), "\n";
echo 'no key left: ', var_export($admin->cmd('EXISTS', $p . 'pool:redislock-semaphore:redislock-holder') === 0, true), "\n";

/* The worker that replaced it takes every permit. */
rl_fpm_until(fn() => count($fpm->workers()) === 1 && $fpm->workers() !== [$pid], 10000);
[$newPid, $acquired, $released] = json_decode((string) $fpm->request('take.php'), true) ?? [0, null, null];
echo 'new worker: ', var_export($newPid !== $pid && $newPid > 0, true), ', acquire ', var_export($acquired, true),
    ', release ', var_export($released, true), "\n";
$fpm->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fpm_terminate_timeout_semaphore_release:');
?>
--EXPECT--
worker reported its pid: true
permits held: true
worker gone: true
response: NULL
master terminated it: true
released: true
no key left: true
new worker: true, acquire true, release true
