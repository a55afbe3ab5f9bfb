--TEST--
php-fpm with pm.max_requests: workers that are recycled leave no connection behind on the server
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
$workers = 2;
$fpm = new RLFpm($workers, ['redislock.servers' => $srv->dsn(), 'redislock.prefix' => 'rltest:fpm_max_requests_no_leak:'],
    ['pm.max_requests' => 5]);
$fpm->script('lock.php', <<<'PHP'
<?php
$lock = new RedisLock('item:' . (int) $_GET['n']);
$ok = $lock->acquire(2000) && $lock->release();
echo json_encode(['pid' => getmypid(), 'ok' => $ok, 'connects' => RedisLock::stats()['connects']]);
PHP);

$before = (int) $admin->info('stats', 'total_connections_received');
$list = [];
for ($i = 0; $i < 60; $i++) {
    $list[] = ['lock.php', ['n' => $i % 10]];
}
$responses = array_map(fn($b) => json_decode((string) $b, true), $fpm->requests($list, $workers));
echo 'requests that acquired and released: ', count(array_filter($responses, fn($r) => ($r['ok'] ?? false) === true)), "\n";
$pids = array_unique(array_column($responses, 'pid'));
echo 'workers that served (at least 60 / 5): ', count($pids) >= 12 ? 'yes' : count($pids), "\n";
echo 'each connected once: ', var_export(max(array_column($responses, 'connects')) === 1, true), "\n";

/* The recycled workers' connections go with them: at most one per live worker remains.
 * Judged on one snapshot of both lists (the one the wait ended on): read apart,
 * a worker recycled in between would look like a connection left behind. */
$clients = $live = [];
rl_fpm_until(function () use ($admin, $fpm, $workers, &$clients, &$live) {
    $clients = rl_fpm_clients($admin);
    $live = $fpm->workers();
    return count($clients) <= $workers && !array_diff($clients, $live);
}, 3000);
echo 'redislock connections on the server: ', count($clients) <= $workers ? "at most $workers" : count($clients), "\n";
echo 'all of live workers: ', var_export(!array_diff($clients, $live), true), "\n";
$received = (int) $admin->info('stats', 'total_connections_received') - $before;
echo 'connections received: ', $received <= count($pids) ? 'one per worker at most' : "$received for " . count($pids) . ' workers', "\n";
$fpm->stop();
?>
--EXPECT--
requests that acquired and released: 60
workers that served (at least 60 / 5): yes
each connected once: true
redislock connections on the server: at most 2
all of live workers: true
connections received: one per worker at most
