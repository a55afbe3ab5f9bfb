--TEST--
A pooled connection closed by CLIENT KILL is replaced transparently: no exception, reconnects counted
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$opts = ['servers' => RL_DSN, 'prefix' => 'rltest:reconnect_after_client_kill:'];
$key = 'rltest:reconnect_after_client_kill:job';

/* Kills every connection named after this process; returns how many. */
function kill_ours(): int
{
    $list = (string) rl_admin()->cmd('CLIENT', 'LIST');
    preg_match_all('/^id=(\d+) .* name=redislock:' . getmypid() . ' /m', $list, $m);
    foreach ($m[1] as $id) {
        rl_admin()->cmd('CLIENT', 'KILL', 'ID', $id);
    }
    return count($m[1]);
}

$l = new RedisLock('job', $opts);
var_dump($l->acquire());
$before = RedisLock::stats();

/* Killed while the lock is held: release() goes through a new connection. */
var_dump(kill_ours());
var_dump($l->release());
var_dump(rl_admin()->cmd('EXISTS', $key));

/* Killed while idle: the next acquire() does not notice either. */
var_dump(kill_ours());
var_dump($l->acquire());
var_dump(rl_admin()->cmd('GET', $key) === $l->token());
var_dump(kill_ours());
var_dump($l->extend());
var_dump(kill_ours());
var_dump($l->isAcquired());
var_dump($l->release());

$after = RedisLock::stats();
var_dump($after['reconnects'] - $before['reconnects']);
var_dump($after['errors'] - $before['errors']);
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('DEL', 'rltest:reconnect_after_client_kill:job');
?>
--EXPECT--
bool(true)
int(1)
bool(true)
int(0)
int(1)
bool(true)
bool(true)
int(1)
bool(true)
int(1)
bool(true)
bool(true)
int(4)
int(0)
