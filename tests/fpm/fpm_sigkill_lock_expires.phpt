--TEST--
php-fpm: a worker killed with SIGKILL while holding a lock leaves the key until its ttl expires
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
$p = 'rltest:fpm_sigkill_lock_expires:';
$admin = rl_admin();
$fpm = new RLFpm(1, ['redislock.servers' => RL_DSN, 'redislock.prefix' => $p]);
/* Takes the lock, tells the test its pid through Redis, then holds on. */
$fpm->script('hold.php', <<<'PHP'
<?php
$lock = new RedisLock('job', ['ttl' => (int) $_GET['ttl']]);
if (!$lock->acquire()) {
    exit('busy');
}
$k = $_GET['prefix'] . 'pid';
$v = (string) getmypid();
$s = stream_socket_client('tcp://127.0.0.1:' . (int) $_GET['port'], $errno, $errstr, 5);
fwrite($s, "*3\r\n\$3\r\nSET\r\n\$" . strlen($k) . "\r\n$k\r\n\$" . strlen($v) . "\r\n$v\r\n");
fgets($s);
sleep(30);
echo 'not killed';
PHP);
$fpm->script('lock.php', <<<'PHP'
<?php
$lock = new RedisLock('job');
echo json_encode([getmypid(), $lock->acquire(), $lock->release()]);
PHP);

$ttl = 3000;
$h = $fpm->begin('hold.php', ['ttl' => $ttl, 'prefix' => $p, 'port' => RL_PORT]);
$pid = null;
rl_fpm_until(function () use ($admin, $p, &$pid) {
    $pid = $admin->cmd('GET', $p . 'pid');
    return $pid !== null;
}, 10000);
$pid = (int) $pid;
echo 'worker reported its pid: ', var_export($fpm->workers() === [$pid], true), "\n";
echo 'lock held: ', var_export($admin->cmd('EXISTS', $p . 'job') === 1, true), "\n";

rl_kill($pid, SIGKILL);
echo 'worker gone: ', var_export(rl_fpm_until(fn() => !rl_fpm_alive($pid), 5000), true), "\n";
$pttl = $admin->cmd('PTTL', $p . 'job');
echo 'right after the kill: ', $pttl > 0 && $pttl <= $ttl ? 'key left, expiring' : "pttl $pttl", "\n";
echo 'response: ', var_export($fpm->finish($h, 5000), true), "\n";
echo 'gone once the ttl ran out: ', var_export(rl_fpm_until(fn() => $admin->cmd('EXISTS', $p . 'job') === 0, $ttl + 3000), true), "\n";

/* The worker that replaced it takes the lock. */
rl_fpm_until(fn() => count($fpm->workers()) === 1 && $fpm->workers() !== [$pid], 10000);
[$newPid, $acquired, $released] = json_decode((string) $fpm->request('lock.php'), true) ?? [0, null, null];
echo 'new worker: ', var_export($newPid !== $pid && $newPid > 0, true), ', acquire ', var_export($acquired, true),
    ', release ', var_export($released, true), "\n";
$fpm->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fpm_sigkill_lock_expires:');
?>
--EXPECT--
worker reported its pid: true
lock held: true
worker gone: true
right after the kill: key left, expiring
response: NULL
gone once the ttl ran out: true
new worker: true, acquire true, release true
