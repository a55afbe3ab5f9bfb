--TEST--
Lock names with NUL bytes, CRLF and a 1 MB name map to exactly prefix.name on the server
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = "rltest:binary_safe_names:\0:";
$opts = ['servers' => RL_DSN, 'prefix' => $p];
$names = [
    'NUL' => "a\0b",
    'CRLF' => "x\r\ny\r\n*1\r\n\$4\r\nPING\r\n",
    '1 MB' => str_repeat("\xff\0\r\n\x80", 200000) . 'end',
];

foreach ($names as $label => $name) {
    echo "$label:\n";
    $lock = new RedisLock($name, $opts);
    var_dump($lock->acquire());
    var_dump(rl_admin()->cmd('GET', $p . $name) === $lock->token());
    var_dump(rl_admin()->cmd('PTTL', $p . $name) > 0);
    /* the same name is the same lock; a name differing after a NUL is not */
    $same = new RedisLock($name, $opts);
    var_dump($same->acquire());
    $other = new RedisLock($name . "\0", $opts);
    var_dump($other->acquire());
    var_dump(rl_admin()->cmd('GET', $p . $name . "\0") === $other->token());
    var_dump($other->release());
    var_dump($lock->isAcquired());
    var_dump($lock->extend());
    var_dump($lock->release());
    var_dump(rl_admin()->cmd('EXISTS', $p . $name));
}
/* nothing was written under a name cut at a NUL or a CR */
var_dump(rl_admin()->cmd('EXISTS', $p . 'a', $p . 'x', "rltest:binary_safe_names:"));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean("rltest:binary_safe_names:\0:");
?>
--EXPECT--
NUL:
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
CRLF:
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
1 MB:
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(0)
