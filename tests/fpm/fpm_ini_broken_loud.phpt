--TEST--
php-fpm: a typo in a pool's redislock.* INI values never sends locks to the default server: every lock throws RedisLockException (code CONFIG) naming the entry, and the problem is in the error log once per process, not once per request
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
/* A typo'd server list (a missing "/" after the scheme) and a boolean that
 * is not one. The default server, 127.0.0.1:6379, is never contacted: the
 * pool has no valid list to fall back to. */
$fpm = new RLFpm(1, ['redislock.servers' => 'redis:/127.0.0.1:' . RL_PORT, 'redislock.persistent' => 'maybe']);
$fpm->script('lock.php', <<<'PHP'
<?php
$out = [];
foreach ([[], ['servers' => $_GET['dsn']], ['servers' => $_GET['dsn'], 'persistent' => true]] as $options) {
    try {
        $lock = new RedisLock('fpm_ini_broken_loud', $options);
        $out[] = 'taken: ' . var_export($lock->acquire(), true) . ', released: ' . var_export($lock->release(), true);
    } catch (RedisLockException $e) {
        $out[] = get_class($e) . ' ' . $e->getCode() . ': ' . $e->getMessage();
    }
}
echo implode("\n", $out);
PHP);
for ($i = 0; $i < 3; $i++) {
    $body = (string) $fpm->request('lock.php', ['dsn' => RL_DSN]);
    echo $i === 0 ? $body . "\n" : ($body === $prev ? "same again\n" : "different: $body\n");
    $prev = $body;
}
$log = $fpm->log();
foreach (['redislock.servers', 'redislock.persistent'] as $entry) {
    $lines = preg_grep('/redislock: INI entry ' . preg_quote($entry) . ' /', explode("\n", $log));
    echo $entry, ' logged: ', count($lines) >= 1 && count($lines) <= 2 ? 'once per process' : count($lines) . ' times', "\n";
}
echo preg_replace('/^.*(redislock: INI entry redislock\.persistent[^\n"]*).*$/s', '$1', $log), "\n";
$fpm->stop();
?>
--EXPECTF--
RedisLockException 1: INI entry redislock.persistent must be on or off (1/0, yes/no, true/false); INI entry redislock.servers is not a valid DSN list: server 1: a DSN must start with redis://, rediss://, unix://, redis-sentinel://, redis-cluster:// or their TLS forms
RedisLockException 1: INI entry redislock.persistent must be on or off (1/0, yes/no, true/false)
taken: true, released: true
same again
same again
redislock.servers logged: once per process
redislock.persistent logged: once per process
redislock: INI entry redislock.persistent must be on or off (1/0, yes/no, true/false); every lock that uses it throws until it is fixed
