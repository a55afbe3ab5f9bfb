--TEST--
php-fpm: a ZooKeeperLock still held when a request ends (return, exit, uncaught exception, fatal error) is released before the response ends; each worker keeps one session across requests
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../zookeeper.inc';
require __DIR__ . '/../fpm.inc';
if ($why = rl_zk_missing() ?? rl_fpm_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../zookeeper.inc';
require __DIR__ . '/../fpm.inc';
$zk = new RLZooKeeper();
$fpm = new RLFpm(2, ['redislock.zookeeper_hosts' => $zk->hosts(), 'redislock.connect_timeout' => RL_ZK_CONNECT,
    'redislock.zookeeper_session_timeout' => RL_ZK_SESSION]);
$fpm->script('end.php', <<<'PHP'
<?php
function keep(RedisLock\ZooKeeperLock $l): void { static $s; $s = $l; }
$lock = new RedisLock\ZooKeeperLock($_GET['name'], ['auto_release' => $_GET['auto'] === '1']);
if (!$lock->acquire()) {
    exit('busy');
}
echo json_encode(['pid' => getmypid(), 'token' => $lock->token()]), "\n";
keep($lock);
unset($lock);
switch ($_GET['how']) {
    case 'exit':
        exit(0);
    case 'throw':
        throw new RuntimeException('uncaught');
    case 'fatal':
        undefined_function_of_zk_fpm_request_end_release();
}
PHP);

$pids = [];
foreach (['return', 'exit', 'throw', 'fatal'] as $how) {
    $body = (string) $fpm->request('end.php', ['name' => $how, 'auto' => '1', 'how' => $how]);
    $r = json_decode(strtok($body, "\n"), true);
    $pids[$r['pid'] ?? 0] = true;
    /* Checked at once: the node went before the response ended. */
    echo $how, ': ', isset($r['token']) && str_starts_with($r['token'], "/redislock/$how/lock-") ? 'held' : 'not held',
        ', then ', $zk->queue("/redislock/$how") === [] ? 'released' : 'still there', "\n";
}

echo "auto_release off: the node stays with the worker's session\n";
$body = (string) $fpm->request('end.php', ['name' => 'kept', 'auto' => '0', 'how' => 'return']);
$r = json_decode(strtok($body, "\n"), true);
var_dump($zk->queue('/redislock/kept') === [$r['token']]);

echo "sessions: one per worker, reused by every request\n";
foreach ($fpm->requests(array_fill(0, 20, ['end.php', ['name' => 'many', 'auto' => '1', 'how' => 'return']]), 4)
         as $body) {
    $r = json_decode(strtok((string) $body, "\n"), true);
    if (isset($r['pid'])) {
        $pids[$r['pid']] = true;
    }
}
var_dump(count(array_intersect_key($pids, array_flip($fpm->workers()))) >= 1);
var_dump($zk->clients() === count($fpm->workers()));

echo "the kept node goes with its worker's session when php-fpm stops\n";
$fpm->stop();
var_dump(rl_zk_until(fn() => $zk->ephemerals() === [], 30000));
?>
--EXPECT--
return: held, then released
exit: held, then released
throw: held, then released
fatal: held, then released
auto_release off: the node stays with the worker's session
bool(true)
sessions: one per worker, reused by every request
bool(true)
bool(true)
the kept node goes with its worker's session when php-fpm stops
bool(true)
