--TEST--
With persistent = false, a lock released at request end goes over the request's own connection: one connection per request
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:auto_release_request_scoped:';

/* The module this process runs, so the child PHP runs the same one. */
function module_path(): string
{
    foreach (file('/proc/self/maps') ?: [] as $line) {
        if (preg_match('~\s(/\S*/redislock\.so)$~', rtrim($line), $m)) {
            return $m[1];
        }
    }
    return __DIR__ . '/../../modules/redislock.so';
}

/* A request that takes a request-scoped lock, keeps it in a static and ends;
 * it prints its counters as the request-end release left them. */
const CHILD = <<<'PHP'
[, $dsn, $prefix] = $argv;
function keep(RedisLock $l): void { static $s; $s = $l; }
$lock = new RedisLock('job', ['servers' => $dsn, 'prefix' => $prefix, 'persistent' => false]);
var_dump($lock->acquire());
keep($lock);
unset($lock);
register_shutdown_function(function () {
    /* runs before the request end releases the kept lock */
    echo json_encode(['connects' => RedisLock::stats()['connects']]), "\n";
});
PHP;

$server = new RLServer();
$admin = $server->client();
$before = (int) $admin->info('stats', 'total_connections_received');
$cmd = [PHP_BINARY, '-n', '-d', 'extension=' . module_path(), '-r', CHILD, '--', $server->dsn(), $p];
exec(implode(' ', array_map('escapeshellarg', $cmd)) . ' 2>&1', $out, $rc);
echo implode("\n", $out), "\n";
var_dump($rc);
/* The kept lock was released at request end (key gone) ... */
var_dump($admin->cmd('EXISTS', $p . 'job'));
/* ... over the same connection that took it: the server saw one connection
 * from the child (besides this test's own admin connection). */
$after = (int) $admin->info('stats', 'total_connections_received');
var_dump($after - $before);
?>
--EXPECT--
bool(true)
{"connects":1}
int(0)
int(0)
int(1)
