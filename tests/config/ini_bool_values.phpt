--TEST--
Boolean redislock.* INI entries take on/off, yes/no, true/false, 1/0 (any case) and nothing else: ini_set() refuses junk with a warning, and junk set at startup makes locks throw instead of reading it as Off
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
redislock.fencing=maybe
--FILE--
<?php
require __DIR__ . '/../config.inc';
try {
    new RedisLock('job', ['servers' => RL_DSN]);
} catch (RedisLockException $e) {
    echo $e->getCode() === RedisLockException::CONFIG ? 'CONFIG: ' : 'other: ', $e->getMessage(), "\n";
}
var_dump((new RedisLock('job', ['servers' => RL_DSN, 'fencing' => true])) instanceof RedisLock);
/* Fair mode needs one server: a lock over three tells whether it is on. */
function fair_is_on(): string
{
    try {
        new RedisLock('job', ['servers' => RL_DSN . ',redis://127.0.0.1:1,redis://127.0.0.1:2', 'fencing' => false]);
        return 'off';
    } catch (ValueError $e) {
        return 'on';
    }
}
foreach (['On', 'off', 'YES', 'no', 'True', 'false', '1', '0', ' on ', ''] as $v) {
    echo json_encode($v), ': ', var_export(ini_set('redislock.fair', $v) !== false, true), ', fair ', fair_is_on(), "\n";
}
ini_set('redislock.fair', 'on');
foreach (['maybe', '2', 'enabled', 'o n'] as $v) {
    var_dump(ini_set('redislock.fair', $v));
}
echo 'still ', fair_is_on(), "\n";
?>
--EXPECTF--
redislock: INI entry redislock.fencing must be on or off (1/0, yes/no, true/false); every lock that uses it throws until it is fixed
CONFIG: INI entry redislock.fencing must be on or off (1/0, yes/no, true/false)
bool(true)
"On": true, fair on
"off": true, fair off
"YES": true, fair on
"no": true, fair off
"True": true, fair on
"false": true, fair off
"1": true, fair on
"0": true, fair off
" on ": true, fair on
"": true, fair off

Warning: ini_set(): redislock.fair must be on or off (1/0, yes/no, true/false) in %s on line %d
bool(false)

Warning: ini_set(): redislock.fair must be on or off (1/0, yes/no, true/false) in %s on line %d
bool(false)

Warning: ini_set(): redislock.fair must be on or off (1/0, yes/no, true/false) in %s on line %d
bool(false)

Warning: ini_set(): redislock.fair must be on or off (1/0, yes/no, true/false) in %s on line %d
bool(false)
still on
