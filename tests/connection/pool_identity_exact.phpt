--TEST--
Connection identity is exact: credentials that differ only in where a NUL byte falls never share an authenticated connection; a unix path too long for the system is a ValueError
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$admin = rl_admin();
$prefix = 'rltest:pool_identity_exact:';
/* alice's password holds a NUL byte: "sec\0ret". */
var_dump($admin->cmd('ACL', 'SETUSER', 'rltest_alice', 'reset', 'on', ">sec\0ret", '~' . $prefix . '*', '+@all'));

$right = new RedisLock('job', ['servers' => 'redis://rltest_alice:sec%00ret@' . RL_HOST . ':' . RL_PORT, 'prefix' => $prefix]);
var_dump($right->acquire(), $right->release());
/* User "rltest_alice\0sec", password "ret": the same bytes in the other
 * order of fields. It must authenticate on its own, and fail. */
$wrong = new RedisLock('job', ['servers' => 'redis://rltest_alice%00sec:ret@' . RL_HOST . ':' . RL_PORT, 'prefix' => $prefix]);
try {
    var_dump($wrong->acquire());
} catch (RedisLockException $e) {
    echo get_class($e), ': ', str_replace((string) RL_PORT, 'PORT', $e->getMessage()), "\n";
}
/* The right credentials still work, over their own connection. */
var_dump($right->acquire(), $right->release());

/* Unix socket paths: the system's limit (107 bytes on Linux) is checked
 * when the DSN is parsed, so two long paths can never be cut to one. */
$long = '/tmp/' . str_repeat('d', 200) . '/redis.sock';
foreach ([$long, '/tmp/' . str_repeat('x', 102)] as $path) {
    try {
        new RedisLock('job', ['servers' => 'unix://' . $path]);
        echo strlen($path), " bytes: accepted\n";
    } catch (ValueError $e) {
        echo strlen($path), ' bytes: ', $e->getMessage(), "\n";
    }
}
try {
    new RedisLock('job', ['servers' => 'unix://' . $long . ',unix://' . $long . 'x']);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_admin()->cmd('ACL', 'DELUSER', 'rltest_alice');
rl_core_clean('rltest:pool_identity_exact:');
?>
--EXPECT--
string(2) "OK"
bool(true)
bool(true)
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
216 bytes: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the socket path is longer than the system allows (107 bytes)
107 bytes: accepted
RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the socket path is longer than the system allows (107 bytes)
