--TEST--
Quorum: isAcquired() is true while a quorum holds our token and false once a majority lost it; the hold is then gone
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_isacquired:';
$key = $prefix . 'job';
$servers = rl_quorum_servers(3);
$lock = new RedisLock('job', rl_quorum_opts($servers, $prefix));

var_dump($lock->acquire());
var_dump($lock->isAcquired());
/* One server lost it: a quorum still has it. */
var_dump($servers[2]->client()->cmd('DEL', $key));
var_dump($lock->isAcquired());
var_dump($lock->token() !== null, $lock->remaining() > 0);
/* Another token on the second: only one of three is ours. */
var_dump($servers[1]->client()->cmd('SET', $key, str_repeat('f', 32), 'PX', '10000'));
var_dump($lock->isAcquired());
var_dump($lock->token(), $lock->remaining());
var_dump($lock->isAcquired());
/* release() still takes back what is left of ours; nothing of the other
 * holder's is touched. */
var_dump($lock->release());
var_dump(rl_quorum_values($servers, $key));

/* Both deleted outright. */
var_dump($lock->acquire());
var_dump($servers[0]->client()->cmd('DEL', $key), $servers[1]->client()->cmd('DEL', $key));
var_dump($lock->isAcquired());
var_dump($lock->token(), $lock->remaining());
?>
--EXPECT--
bool(true)
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
string(2) "OK"
bool(false)
NULL
int(0)
bool(false)
bool(false)
array(3) {
  [0]=>
  NULL
  [1]=>
  string(32) "ffffffffffffffffffffffffffffffff"
  [2]=>
  NULL
}
bool(true)
int(1)
int(1)
bool(false)
NULL
int(0)
