--TEST--
Integer INI entries are decimal: a leading zero never makes them octal, and one parse decides both the check and the value
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
redislock.ttl=030000
--FILE--
<?php
require __DIR__ . '/../config.inc';
$a = rl_admin();
$p = 'rltest:ini_numbers_decimal:';

function lease(string $name): int
{
    global $a, $p;
    $l = new RedisLock($name, ['servers' => RL_DSN, 'prefix' => $p]);
    $l->acquire();
    $pttl = $a->cmd('PTTL', $p . $name);
    $l->release();
    return $pttl;
}

var_dump(ini_get('redislock.ttl'));
$pttl = lease('a');
echo $pttl > 29000 && $pttl <= 30000 ? "030000 is 30000 ms\n" : "030000 gave a lease of $pttl ms\n";

var_dump(ini_set('redislock.ttl', '08'));
$pttl = lease('b');
echo $pttl > 0 && $pttl <= 8 ? "08 is 8 ms\n" : "08 gave a lease of $pttl ms\n";

foreach (['0x10', '1e3', '10 ms', '-5', '0', '99999999999999999999', ''] as $bad) {
    var_dump(@ini_set('redislock.ttl', $bad), ini_get('redislock.ttl'));
}
var_dump(ini_set('redislock.read_timeout', '0750'), ini_get('redislock.read_timeout'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ini_numbers_decimal:');
?>
--EXPECT--
string(6) "030000"
030000 is 30000 ms
string(6) "030000"
08 is 8 ms
bool(false)
string(2) "08"
bool(false)
string(2) "08"
bool(false)
string(2) "08"
bool(false)
string(2) "08"
bool(false)
string(2) "08"
bool(false)
string(2) "08"
bool(false)
string(2) "08"
string(4) "1000"
string(4) "0750"
