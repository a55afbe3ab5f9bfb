--TEST--
A wrong password gives RedisLockException "authentication ... WRONGPASS" that never shows the password
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';
$admin = rl_admin();
$prefix = 'rltest:acl_wrong_password:';
var_dump($admin->cmd('ACL', 'SETUSER', 'rltest_acl_wrongpw', 'reset', 'on', '>Right-Passw0rd', '~' . $prefix . '*', '+@all'));

$cases = [
    'wrong password' => ['rltest_acl_wrongpw', 'Wr0ng-Passw0rd!'],
    'unknown user' => ['rltest_acl_nobody', 'N0body-Passw0rd'],
    'disabled user' => ['rltest_acl_wrongpw', 'Right-Passw0rd'],
];
foreach ($cases as $what => [$user, $password]) {
    echo "$what\n";
    if ($what === 'disabled user') {
        $admin->cmd('ACL', 'SETUSER', 'rltest_acl_wrongpw', 'off');
    }
    $dsn = 'redis://' . $user . ':' . rawurlencode($password) . '@' . RL_HOST . ':' . RL_PORT;
    $l = new RedisLock('job', ['servers' => $dsn, 'prefix' => $prefix]);
    foreach ([fn() => $l->acquire(), fn() => $l->acquire(100), fn() => $l->run('phpversion')] as $call) {
        try {
            var_dump($call());
        } catch (RedisLockException $e) {
            $msg = $e->getMessage();
            echo rl_msg($e, RL_PORT), "\n";
            var_dump(str_contains($msg, 'authentication'), str_contains($msg, 'WRONGPASS'),
                str_contains($msg, $password) || str_contains((string) $e, $password)
                    || str_contains($e->getTraceAsString(), $password));
        }
    }
}
var_dump($admin->cmd('EXISTS', $prefix . 'job'));

/* The right password works (a failed login leaves nothing behind to reuse). */
$admin->cmd('ACL', 'SETUSER', 'rltest_acl_wrongpw', 'on');
$l = new RedisLock('job', ['servers' => 'redis://rltest_acl_wrongpw:Right-Passw0rd@' . RL_HOST . ':' . RL_PORT,
    'prefix' => $prefix]);
var_dump($l->acquire(), $l->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('ACL', 'DELUSER', 'rltest_acl_wrongpw');
foreach ((array) rl_admin()->cmd('KEYS', 'rltest:acl_wrong_password:*') as $k) {
    rl_admin()->cmd('DEL', $k);
}
?>
--EXPECT--
string(2) "OK"
wrong password
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
bool(false)
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
bool(false)
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
bool(false)
unknown user
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
bool(false)
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
bool(false)
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
bool(false)
disabled user
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
bool(false)
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
bool(false)
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
bool(true)
bool(true)
bool(false)
int(0)
bool(true)
bool(true)
