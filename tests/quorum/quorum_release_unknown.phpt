--TEST--
Quorum: release(), extend() and isAcquired() throw only when the failed servers make the answer unknown, and otherwise answer from a quorum
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_release_unknown:';
$key = $prefix . 'job';
$servers = rl_quorum_servers(3);
$lock = new RedisLock('job', rl_quorum_opts($servers, $prefix));

function show(callable $fn, array $servers): void
{
    try {
        var_dump($fn());
    } catch (RedisLockException $e) {
        echo rl_quorum_msg($e, $servers), "\n";
    }
}

function restart_all(array $servers): void
{
    foreach ($servers as $s) {
        if ($s->pid === null) {
            $s->start();
        }
    }
}

echo "one down, ours on the other two: released\n";
var_dump($lock->acquire());
rl_quorum_stop($servers[0]);
show(fn() => $lock->release(), $servers);
var_dump(rl_quorum_values([1 => $servers[1], 2 => $servers[2]], $key));
restart_all($servers);

echo "two down: unknown, ours on the third deleted anyway\n";
var_dump($lock->acquire());
rl_quorum_stop($servers[0]);
rl_quorum_stop($servers[1]);
show(fn() => $lock->release(), $servers);
var_dump(rl_quorum_values([2 => $servers[2]], $key));
/* Not known to be released: the object keeps the hold, and a second
 * release() is still unanswerable. */
var_dump($lock->token() !== null);
show(fn() => $lock->release(), $servers);
restart_all($servers);

echo "one down, one lost ours: unknown\n";
var_dump($lock->acquire());
$servers[1]->client()->cmd('DEL', $key);
rl_quorum_stop($servers[0]);
show(fn() => $lock->release(), $servers);
var_dump(rl_quorum_values([1 => $servers[1], 2 => $servers[2]], $key));
restart_all($servers);

echo "all up, two lost ours: false, ours on the third deleted\n";
var_dump($lock->acquire());
$servers[0]->client()->cmd('DEL', $key);
$servers[1]->client()->cmd('SET', $key, str_repeat('e', 32));
show(fn() => $lock->release(), $servers);
var_dump(rl_quorum_values($servers, $key));
$servers[1]->client()->cmd('DEL', $key);

echo "two down: extend() and isAcquired() cannot tell\n";
var_dump($lock->acquire());
rl_quorum_stop($servers[0]);
rl_quorum_stop($servers[1]);
show(fn() => $lock->extend(), $servers);
show(fn() => $lock->isAcquired(), $servers);
restart_all($servers);
/* Back up (empty): the answer is known again, and it is no. */
show(fn() => $lock->isAcquired(), $servers);
var_dump($lock->token());
show(fn() => $lock->release(), $servers);
var_dump(rl_quorum_keys($servers));
?>
--EXPECTF--
one down, ours on the other two: released
bool(true)
bool(true)
array(2) {
  [1]=>
  NULL
  [2]=>
  NULL
}
two down: unknown, ours on the third deleted anyway
bool(true)
RedisLock\ConnectionException: release failed: no quorum (2 of 3 servers needed, 2 failed); %s
array(1) {
  [2]=>
  NULL
}
bool(true)
RedisLock\ConnectionException: release failed: no quorum (2 of 3 servers needed, 2 failed); %s
one down, one lost ours: unknown
bool(true)
RedisLock\ConnectionException: release failed: outcome unknown (2 of 3 servers must agree: 1 yes, 1 no, 1 failed); %s
array(2) {
  [1]=>
  NULL
  [2]=>
  NULL
}
all up, two lost ours: false, ours on the third deleted
bool(true)
bool(false)
array(3) {
  [0]=>
  NULL
  [1]=>
  string(32) "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
  [2]=>
  NULL
}
two down: extend() and isAcquired() cannot tell
bool(true)
RedisLock\ConnectionException: extend failed: no quorum (2 of 3 servers needed, 2 failed); %s
RedisLock\ConnectionException: isAcquired failed: no quorum (2 of 3 servers needed, 2 failed); %s
bool(false)
NULL
bool(false)
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
