--TEST--
Quorum: error replies count as failures; one server refusing writes (OOM) is tolerated, two make acquire() throw RedisLock\ConnectionException (a refusal of the server's state counts as a failure to answer) with each server's reply
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_error_replies:';
$key = $prefix . 'job';
$servers = rl_quorum_servers(3);
$lock = new RedisLock('job', rl_quorum_opts($servers, $prefix));

/* A server over its maxmemory refuses SET with an OOM error (deleting is
 * still allowed). */
function refuse_writes(RLServer $s, bool $on): void
{
    $s->client()->cmd('CONFIG', 'SET', 'maxmemory', $on ? '1' : '0');
}

echo "one refuses\n";
refuse_writes($servers[0], true);
var_dump($lock->acquire());
var_dump(rl_quorum_values($servers, $key) === [null, $lock->token(), $lock->token()]);
var_dump($lock->release());
var_dump(rl_quorum_keys($servers));

echo "two refuse\n";
refuse_writes($servers[1], true);
try {
    var_dump($lock->acquire());
} catch (RedisLockException $e) {
    echo rl_quorum_msg($e, $servers), "\n";
}
var_dump($lock->token());
/* Nothing of ours left on the one that said OK. */
var_dump(rl_quorum_keys($servers));

echo "one refuses, one down\n";
refuse_writes($servers[1], false);
rl_quorum_stop($servers[2]);
try {
    var_dump($lock->acquire());
} catch (RedisLockException $e) {
    echo rl_quorum_msg($e, $servers), "\n";
}
var_dump(rl_quorum_keys([$servers[0], $servers[1]]));
?>
--EXPECTF--
one refuses
bool(true)
bool(true)
bool(true)
array(3) {
  [0]=>
  array(0) {
  }
  [1]=>
  array(0) {
  }
  [2]=>
  array(0) {
  }
}
two refuse
RedisLock\ConnectionException: acquire failed: no quorum (2 of 3 servers needed, 2 failed); 127.0.0.1:PORT replied: OOM command not allowed when used memory > 'maxmemory'.; 127.0.0.1:PORT replied: OOM command not allowed when used memory > 'maxmemory'.
NULL
array(3) {
  [0]=>
  array(0) {
  }
  [1]=>
  array(0) {
  }
  [2]=>
  array(0) {
  }
}
one refuses, one down
RedisLock\ConnectionException: acquire failed: no quorum (2 of 3 servers needed, 2 failed); 127.0.0.1:PORT replied: OOM command not allowed when used memory > 'maxmemory'.; %s
array(2) {
  [0]=>
  array(0) {
  }
  [1]=>
  array(0) {
  }
}
