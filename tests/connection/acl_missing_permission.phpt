--TEST--
A user without access to the lock's key gets RedisLockException with NOPERM, and nothing is written
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';
$admin = rl_admin();
$base = 'rltest:acl_missing_permission:';
var_dump($admin->cmd('ACL', 'SETUSER', 'rltest_acl_noperm', 'reset', 'on', '>pw-noperm', '~' . $base . 'allowed:*', '+@all'));
$dsn = 'redis://rltest_acl_noperm:pw-noperm@' . RL_HOST . ':' . RL_PORT;

echo "outside the key pattern\n";
$l = new RedisLock('job', ['servers' => $dsn, 'prefix' => $base . 'denied:']);
foreach ([fn() => $l->acquire(), fn() => $l->acquire(100)] as $call) {
    try {
        var_dump($call());
    } catch (RedisLockException $e) {
        echo rl_msg($e, RL_PORT), "\n";
        var_dump($l->token());
    }
}
var_dump($admin->cmd('KEYS', $base . 'denied:*'));

echo "permission withdrawn while held\n";
$l = new RedisLock('job', ['servers' => $dsn, 'prefix' => $base . 'allowed:']);
var_dump($l->acquire());
$token = $l->token();
var_dump($admin->cmd('ACL', 'SETUSER', 'rltest_acl_noperm', 'resetkeys', '~' . $base . 'elsewhere:*'));
foreach (['extend', 'release'] as $m) {
    try {
        var_dump($l->$m());
    } catch (RedisLockException $e) {
        echo rl_msg($e, RL_PORT), "\n";
        var_dump(str_contains($e->getMessage(), $token));
    }
}
/* Untouched: the key still holds the token until its lease ends. */
var_dump($admin->cmd('GET', $base . 'allowed:job') === $token);
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('ACL', 'DELUSER', 'rltest_acl_noperm');
foreach ((array) rl_admin()->cmd('KEYS', 'rltest:acl_missing_permission:*') as $k) {
    rl_admin()->cmd('DEL', $k);
}
?>
--EXPECTF--
string(2) "OK"
outside the key pattern
RedisLockException: acquire failed: 127.0.0.1:PORT replied: NOPERM %s
NULL
RedisLockException: acquire failed: 127.0.0.1:PORT replied: NOPERM %s
NULL
array(0) {
}
permission withdrawn while held
bool(true)
string(2) "OK"
RedisLockException: extend failed: 127.0.0.1:PORT replied: NOPERM %s
bool(false)
RedisLockException: release failed: 127.0.0.1:PORT replied: NOPERM %s
bool(false)
bool(true)
