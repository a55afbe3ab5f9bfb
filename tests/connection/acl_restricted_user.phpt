--TEST--
A restricted ACL user (key pattern, no CLIENT) works, and a percent-encoded password with special characters too
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$admin = rl_admin();
$prefix = 'rltest:acl_restricted_user:';
/* Only this test's keys; no CLIENT command at all (CLIENT SETNAME is refused). */
var_dump($admin->cmd('ACL', 'SETUSER', 'rltest_acl_restricted', 'reset', 'on', '>pw-restricted',
    '~' . $prefix . '*', '+@all', '-client'));
/* Characters that mean something in a DSN, percent-encoded. */
$special = 'p@ss:w/rd% #?&=,x';
var_dump($admin->cmd('ACL', 'SETUSER', 'rltest_acl_special', 'reset', 'on', '>' . $special,
    '~' . $prefix . '*', '+@all'));

$dsns = [
    'restricted' => 'redis://rltest_acl_restricted:pw-restricted@' . RL_HOST . ':' . RL_PORT,
    'special' => 'redis://rltest_acl_special:' . rawurlencode($special) . '@' . RL_HOST . ':' . RL_PORT,
];
foreach ($dsns as $who => $dsn) {
    echo "$who\n";
    $l = new RedisLock($who, ['servers' => $dsn, 'prefix' => $prefix]);
    var_dump($l->acquire());
    var_dump($admin->cmd('GET', $prefix . $who) === $l->token());
    var_dump($l->extend(600000));
    var_dump($admin->cmd('PTTL', $prefix . $who) > 10000);
    var_dump($l->isAcquired());
    var_dump($l->release());
    var_dump($admin->cmd('EXISTS', $prefix . $who));
    /* The waiting path too. */
    var_dump($l->acquire(200));
    var_dump($l->release());
    var_dump($l->run(fn() => 'ran', 200));
    var_dump($admin->cmd('EXISTS', $prefix . $who));
}

/* The connections were made as those users. */
$list = (string) $admin->cmd('CLIENT', 'LIST');
var_dump(str_contains($list, 'user=rltest_acl_restricted '), str_contains($list, 'user=rltest_acl_special '));
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('ACL', 'DELUSER', 'rltest_acl_restricted', 'rltest_acl_special');
foreach ((array) rl_admin()->cmd('KEYS', 'rltest:acl_restricted_user:*') as $k) {
    rl_admin()->cmd('DEL', $k);
}
?>
--EXPECT--
string(2) "OK"
string(2) "OK"
restricted
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
string(3) "ran"
int(0)
special
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
string(3) "ran"
int(0)
bool(true)
bool(true)
