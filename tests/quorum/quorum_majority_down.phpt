--TEST--
Quorum: with a majority of servers down or frozen, acquire() throws "no quorum" (never returns false), in bounded time, and leaves nothing on the live server
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_majority_down:';

/* Returns what acquire() did: "threw <message>" or its result. */
function attempt(RedisLock $lock, array $servers, int $wait = 0): string
{
    try {
        return 'returned ' . var_export($lock->acquire($wait), true);
    } catch (RedisLockException $e) {
        return 'threw ' . rl_quorum_msg($e, $servers);
    }
}

echo "two of three down\n";
$servers = rl_quorum_servers(3);
$lock = new RedisLock('job', rl_quorum_opts($servers, $prefix));
var_dump($lock->acquire(), $lock->release());
rl_quorum_stop($servers[0]);
rl_quorum_stop($servers[1]);
echo attempt($lock, $servers), "\n";
var_dump($lock->token(), $lock->remaining());
/* Waiting does not turn it into false either. */
echo attempt($lock, $servers, 300), "\n";
var_dump(rl_quorum_keys([2 => $servers[2]]));
foreach ($servers as $s) {
    $s->stop();
}

echo "two of three frozen\n";
$qt = 100;
$servers = rl_quorum_servers(3);
$lock = new RedisLock('job', rl_quorum_opts($servers, $prefix, ['quorum_timeout' => $qt]));
/* Warm up without a tight limit (valgrind makes the first use of each
 * code path slow), then once with it. */
$setup = new RedisLock('job', rl_quorum_opts($servers, $prefix));
var_dump($setup->acquire(), $setup->release());
var_dump($lock->acquire(), $lock->release());
$servers[0]->freeze();
$servers[1]->freeze();
try {
    $t = hrtime(true);
    echo attempt($lock, $servers), "\n";
    $ms = rl_quorum_ms($t);
    /* One exchange to send the SET, one to take our token back: each
     * bounded by quorum_timeout. */
    echo $ms < 2 * $qt + 1000 ? "bounded wait\n" : "waited $ms ms\n";
    var_dump($lock->token(), $lock->remaining());
    var_dump(rl_quorum_keys([2 => $servers[2]]));
} finally {
    $servers[0]->thaw();
    $servers[1]->thaw();
}
?>
--EXPECTF--
two of three down
bool(true)
bool(true)
threw RedisLock\ConnectionException: acquire failed: no quorum (2 of 3 servers needed, 2 failed); %s
NULL
int(0)
threw RedisLock\ConnectionException: acquire failed: no quorum (2 of 3 servers needed, 2 failed); cannot connect to 127.0.0.1:PORT: Connection refused; cannot connect to 127.0.0.1:PORT: Connection refused
array(1) {
  [2]=>
  array(0) {
  }
}
two of three frozen
bool(true)
bool(true)
bool(true)
bool(true)
threw RedisLock\ConnectionException: acquire failed: no quorum (2 of 3 servers needed, 2 failed); 127.0.0.1:PORT did not reply within 100 ms; 127.0.0.1:PORT did not reply within 100 ms
bounded wait
NULL
int(0)
array(1) {
  [2]=>
  array(0) {
  }
}
