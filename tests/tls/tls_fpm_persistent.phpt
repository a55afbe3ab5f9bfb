--TEST--
rediss:// under php-fpm: each worker's TLS connection is persistent, its handshake paid once for all the requests the worker serves
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
require __DIR__ . '/../tls.inc';
$srv = new RLTlsServer();
$admin = $srv->client();
$workers = 2;
$fpm = new RLFpm($workers, ['redislock.servers' => $srv->dsn('localhost'), 'redislock.tls_ca' => rl_tls_certs() . '/ca.pem',
    'redislock.prefix' => 'rltest:tls_fpm:']);
$fpm->script('lock.php', <<<'PHP'
<?php
$lock = new RedisLock('item:' . (int) ($_GET['n'] ?? 0));
$ok = $lock->acquire(2000) && $lock->release();
echo json_encode(['pid' => getmypid(), 'ok' => $ok, 'connects' => RedisLock::stats()['connects']]);
PHP);

$before = (int) $admin->info('stats', 'total_connections_received');
$queries = [];
for ($i = 0; $i < 60; $i++) {
    $queries[] = ['lock.php', ['n' => $i % 5]];
}
$responses = array_map(fn ($b) => json_decode((string) $b, true), $fpm->requests($queries, 2));
echo 'requests that acquired and released: ', count(array_filter($responses, fn ($r) => ($r['ok'] ?? false) === true)), "\n";
$connects = [];
foreach ($responses as $r) {
    $connects[$r['pid']] = max($connects[$r['pid']] ?? 0, $r['connects']);
}
echo 'TLS connects per worker at most 1: ', var_export(max($connects) <= 1, true), "\n";
echo 'TLS connections the server received at most one per worker: ',
    var_export((int) $admin->info('stats', 'total_connections_received') - $before <= $workers, true), "\n";
$fpm->stop();
?>
--EXPECT--
requests that acquired and released: 60
TLS connects per worker at most 1: true
TLS connections the server received at most one per worker: true
