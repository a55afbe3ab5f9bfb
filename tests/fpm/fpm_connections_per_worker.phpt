--TEST--
php-fpm static pool: each worker opens one persistent connection and reuses it for every request it serves
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
$workers = 3;
$fpm = new RLFpm($workers, ['redislock.servers' => $srv->dsn(), 'redislock.prefix' => 'rltest:fpm_connections_per_worker:']);
$fpm->script('lock.php', <<<'PHP'
<?php
$lock = new RedisLock('item:' . (int) ($_GET['n'] ?? 0));
$ok = $lock->acquire(2000);
usleep((int) ($_GET['sleep'] ?? 0));
$ok = $ok && $lock->release();
echo json_encode(['pid' => getmypid(), 'ok' => $ok, 'connects' => RedisLock::stats()['connects']]);
PHP);

/* Runs the requests; returns the decoded responses (null for a bad one). */
function run(RLFpm $fpm, array $queries, int $parallel): array
{
    $bodies = $fpm->requests(array_map(fn($q) => ['lock.php', $q], $queries), $parallel);
    return array_map(fn($b) => json_decode((string) $b, true), $bodies);
}

$before = (int) $admin->info('stats', 'total_connections_received');

/* Warm-up: requests that overlap, so that every worker serves one. */
$seen = [];
for ($round = 0; $round < 10 && count($seen) < $workers; $round++) {
    foreach (run($fpm, array_fill(0, $workers, ['sleep' => 300000]), $workers) as $r) {
        $seen[$r['pid'] ?? 0] = true;
    }
}
echo 'workers warmed up: ', count($seen), "\n";
$warm = (int) $admin->info('stats', 'total_connections_received');
echo 'connections received during warm-up: ', $warm - $before, "\n";

/* The load: 300 requests, 6 at a time, on 20 different locks. */
$queries = [];
for ($i = 0; $i < 300; $i++) {
    $queries[] = ['n' => $i % 20];
}
$responses = run($fpm, $queries, 6);
$ok = count(array_filter($responses, fn($r) => ($r['ok'] ?? false) === true));
echo "requests that acquired and released: $ok of ", count($queries), "\n";
$pids = array_unique(array_column($responses, 'pid'));
sort($pids);
echo 'served by the pool\'s workers: ', var_export($pids === $fpm->workers(), true), "\n";
$connects = [];
foreach ($responses as $r) {
    $connects[$r['pid']] = max($connects[$r['pid']] ?? 0, $r['connects']);
}
echo 'connects per worker: ', implode(',', $connects), "\n";

echo 'connections received after warm-up: ', (int) $admin->info('stats', 'total_connections_received') - $warm, "\n";
$clients = rl_fpm_clients($admin);
echo 'redislock connections on the server: ', count($clients), "\n";
$named = array_values(array_unique($clients));
sort($named);
echo 'named after the workers: ', var_export($named === $fpm->workers(), true), "\n";
$fpm->stop();
?>
--EXPECT--
workers warmed up: 3
connections received during warm-up: 3
requests that acquired and released: 300 of 300
served by the pool's workers: true
connects per worker: 1,1,1
connections received after warm-up: 0
redislock connections on the server: 3
named after the workers: true
