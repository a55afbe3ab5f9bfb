--TEST--
php-fpm: a worker's persistent connection closed by the server between requests (CLIENT KILL, idle timeout, restart) costs the next request nothing
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
$srv = new RLServer();
$admin = $srv->client();
$fpm = new RLFpm(1, ['redislock.servers' => $srv->dsn(), 'redislock.prefix' => 'rltest:fpm_server_side_close:']);
$fpm->script('lock.php', <<<'PHP'
<?php
$lock = new RedisLock('job');
try {
    $acquired = $lock->acquire();
    $released = $lock->release();
    $error = null;
} catch (RedisLockException $e) {
    $acquired = $released = null;
    $error = $e->getMessage();
}
echo json_encode(['pid' => getmypid(), 'acquired' => $acquired, 'released' => $released, 'error' => $error]
    + RedisLock::stats());
PHP);

$last = null;
/* One request; prints its outcome and how the worker's counters moved. */
function check(string $label): void
{
    global $fpm, $last;
    $r = json_decode((string) $fpm->request('lock.php'), true) ?? [];
    printf("%-13s status %d, acquire %s, release %s, error %s, same worker %s, reconnects +%d, errors +%d\n",
        $label, $fpm->status, var_export($r['acquired'] ?? null, true), var_export($r['released'] ?? null, true),
        var_export($r['error'] ?? null, true), var_export(!$last || $last['pid'] === ($r['pid'] ?? 0), true),
        ($r['reconnects'] ?? 0) - ($last['reconnects'] ?? 0), ($r['errors'] ?? 0) - ($last['errors'] ?? 0));
    $last = $r + ($last ?? []);
}

check('first');
check('again');

$clients = rl_fpm_clients($admin);
foreach ($clients as $id => $pid) {
    $admin->cmd('CLIENT', 'KILL', 'ID', (string) $id);
}
echo 'killed: ', count($clients), "\n";
check('CLIENT KILL');

$admin->cmd('CONFIG', 'SET', 'timeout', '1');
echo 'closed by idle timeout: ', var_export(rl_fpm_until(fn() => rl_fpm_clients($admin) === [], 6000), true), "\n";
check('idle timeout');
$admin = $srv->client(); /* the old one may have idled out as well */
$admin->cmd('CONFIG', 'SET', 'timeout', '0');

$srv->stop();
rl_fpm_until(function () use ($srv) {
    $s = @stream_socket_client('tcp://127.0.0.1:' . $srv->port, $errno, $errstr, 0.1);
    return !$s || !fclose($s);
}, 5000);
$srv->start();
$admin = $srv->client();
check('restart');
check('after all');
$fpm->stop();
?>
--EXPECT--
first         status 200, acquire true, release true, error NULL, same worker true, reconnects +0, errors +0
again         status 200, acquire true, release true, error NULL, same worker true, reconnects +0, errors +0
killed: 1
CLIENT KILL   status 200, acquire true, release true, error NULL, same worker true, reconnects +1, errors +0
closed by idle timeout: true
idle timeout  status 200, acquire true, release true, error NULL, same worker true, reconnects +1, errors +0
restart       status 200, acquire true, release true, error NULL, same worker true, reconnects +1, errors +0
after all     status 200, acquire true, release true, error NULL, same worker true, reconnects +0, errors +0
