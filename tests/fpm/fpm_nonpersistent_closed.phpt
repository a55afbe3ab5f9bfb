--TEST--
php-fpm with redislock.persistent = 0: each request opens one connection and it is closed when the request ends
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
$fpm = new RLFpm(2, ['redislock.servers' => $srv->dsn(), 'redislock.persistent' => '0',
    'redislock.prefix' => 'rltest:fpm_nonpersistent_closed:']);
/* Two locks in one request: they share the request's one connection. */
$fpm->script('lock.php', <<<'PHP'
<?php
$a = new RedisLock('a:' . (int) $_GET['n']);
$b = new RedisLock('b:' . (int) $_GET['n']);
$ok = $a->acquire(2000) && $b->acquire(2000);
usleep((int) ($_GET['sleep'] ?? 0));
$ok = $ok && $b->release() && $a->release();
echo json_encode(['pid' => getmypid(), 'ok' => $ok]);
PHP);

/* While a request runs, its connection is there, named after its worker. */
$h = $fpm->begin('lock.php', ['n' => 0, 'sleep' => 1000000]);
$during = [];
rl_fpm_until(function () use ($admin, &$during) {
    $during = rl_fpm_clients($admin);
    return count($during) > 0;
}, 5000);
$r = json_decode((string) $fpm->finish($h), true);
echo 'during the request: ', count($during), ' connection, named after its worker: ',
    var_export(array_values($during) === [$r['pid'] ?? -1], true), "\n";
echo 'request ok: ', var_export($r['ok'] ?? null, true), "\n";
echo 'after it: ', rl_fpm_until(fn() => rl_fpm_clients($admin) === [], 2000) ? 'gone' : 'still there', "\n";

/* 40 requests, 2 at a time: one connection each, none left open. */
$before = (int) $admin->info('stats', 'total_connections_received');
$list = [];
for ($i = 1; $i <= 40; $i++) {
    $list[] = ['lock.php', ['n' => $i]];
}
$responses = array_map(fn($b) => json_decode((string) $b, true), $fpm->requests($list, 2));
echo 'requests that acquired and released: ', count(array_filter($responses, fn($r) => ($r['ok'] ?? false) === true)), "\n";
echo 'connections left: ', rl_fpm_until(fn() => rl_fpm_clients($admin) === [], 2000) ? 0 : count(rl_fpm_clients($admin)), "\n";
echo 'connections received: ', (int) $admin->info('stats', 'total_connections_received') - $before, "\n";
$fpm->stop();
?>
--EXPECT--
during the request: 1 connection, named after its worker: true
request ok: true
after it: gone
requests that acquired and released: 40
connections left: 0
connections received: 40
