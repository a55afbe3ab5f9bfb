--TEST--
php-fpm: a lock still held when a request ends (exit, uncaught exception, fatal error, max_execution_time) is released before the response ends, unless auto_release is off
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
$p = 'rltest:fpm_request_end_release:';
$admin = rl_admin();
/* One worker: every request is served by the same process, one after another. */
$fpm = new RLFpm(1, ['redislock.servers' => RL_DSN, 'redislock.prefix' => $p]);
$fpm->script('end.php', <<<'PHP'
<?php
/* Keeps the lock alive until the request ends. */
function keep(RedisLock $l): void { static $s; $s = $l; }
$lock = new RedisLock($_GET['name'], ['ttl' => 60000, 'auto_release' => $_GET['auto'] === '1']);
if (!$lock->acquire()) {
    exit('busy');
}
echo json_encode(['pid' => getmypid(), 'token' => $lock->token()]);
keep($lock);
unset($lock);
switch ($_GET['how']) {
    case 'exit':
        exit(0);
    case 'throw':
        throw new RuntimeException('uncaught');
    case 'fatal':
        undefined_function_of_fpm_request_end_release();
    case 'timeout':
        set_time_limit(1);
        for ($t = hrtime(true); hrtime(true) - $t < 20e9;) {
        }
        echo 'not interrupted';
}
PHP);

$pid = null;
foreach ([true, false] as $auto) {
    echo 'auto_release ', $auto ? 'on' : 'off', ":\n";
    foreach (['exit', 'throw', 'fatal', 'timeout'] as $how) {
        $name = ($auto ? 'on-' : 'off-') . $how;
        $body = (string) $fpm->request('end.php', ['name' => $name, 'auto' => $auto ? '1' : '0', 'how' => $how]);
        /* Checked at once: the release happened before the response ended. */
        $value = $admin->cmd('GET', $p . $name);
        $pttl = $admin->cmd('PTTL', $p . $name);
        $r = json_decode(substr($body, 0, strpos($body, '}') + 1), true);
        $pid ??= $r['pid'] ?? null;
        if ($value === null) {
            $key = 'gone';
        } elseif ($value === ($r['token'] ?? '')) {
            $key = 'kept with its token, ' . ($pttl > 0 && $pttl <= 60000 ? 'expiring' : "pttl $pttl");
        } else {
            $key = 'not as left';
        }
        $ended = !str_contains($body, 'not interrupted') ? 'ended' : 'ran on';
        printf("%-7s %s, key %s, same worker %s\n", $how, $ended, $key, var_export(($r['pid'] ?? 0) === $pid, true));
    }
}
echo 'worker alive: ', var_export($fpm->workers() === [$pid], true), "\n";
$fpm->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fpm_request_end_release:');
?>
--EXPECT--
auto_release on:
exit    ended, key gone, same worker true
throw   ended, key gone, same worker true
fatal   ended, key gone, same worker true
timeout ended, key gone, same worker true
auto_release off:
exit    ended, key kept with its token, expiring, same worker true
throw   ended, key kept with its token, expiring, same worker true
fatal   ended, key kept with its token, expiring, same worker true
timeout ended, key kept with its token, expiring, same worker true
worker alive: true
