--TEST--
A held lock is released when its object is destroyed, unless auto_release is false
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:auto_release_on_destroy:';
$opts = ['servers' => RL_DSN, 'prefix' => $p];

echo "unset:\n";
$l = new RedisLock('unset', $opts);
var_dump($l->acquire());
unset($l);
var_dump(rl_admin()->cmd('EXISTS', $p . 'unset'));

echo "out of scope:\n";
function work(array $opts): string
{
    $l = new RedisLock('scope', $opts);
    $l->acquire();
    return $l->token();
}
var_dump(strlen(work($opts)));
var_dump(rl_admin()->cmd('EXISTS', $p . 'scope'));

echo "overwritten:\n";
$l = new RedisLock('overwritten', $opts);
var_dump($l->acquire());
$l = null;
var_dump(rl_admin()->cmd('EXISTS', $p . 'overwritten'));

echo "in a cycle, collected:\n";
$o = new stdClass();
$o->self = $o;
$o->lock = new RedisLock('cycle', $opts);
var_dump($o->lock->acquire());
unset($o);
gc_collect_cycles();
var_dump(rl_admin()->cmd('EXISTS', $p . 'cycle'));

echo "a non-holder's end touches nothing:\n";
$holder = new RedisLock('shared', $opts);
var_dump($holder->acquire());
$loser = new RedisLock('shared', $opts);
var_dump($loser->acquire());
unset($loser);
var_dump(rl_admin()->cmd('GET', $p . 'shared') === $holder->token());
var_dump($holder->release());
unset($holder);

echo "auto_release false:\n";
$l = new RedisLock('kept', $opts + ['auto_release' => false, 'ttl' => 60000]);
var_dump($l->acquire());
$token = $l->token();
unset($l);
var_dump(rl_admin()->cmd('GET', $p . 'kept') === $token);
var_dump(rl_admin()->cmd('PTTL', $p . 'kept') > 50000);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:auto_release_on_destroy:');
?>
--EXPECT--
unset:
bool(true)
int(0)
out of scope:
int(32)
int(0)
overwritten:
bool(true)
int(0)
in a cycle, collected:
bool(true)
int(0)
a non-holder's end touches nothing:
bool(true)
bool(false)
bool(true)
bool(true)
auto_release false:
bool(true)
bool(true)
bool(true)
