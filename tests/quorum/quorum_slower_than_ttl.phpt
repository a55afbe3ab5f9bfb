--TEST--
Quorum: a grant that arrives after the lease's validity is spent (a quorum only answers late) is not a grant; acquire() returns false and takes its token back
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
require __DIR__ . '/../proxy.inc';
$prefix = 'rltest:quorum_slower_than_ttl:';
$servers = rl_quorum_servers(3);
$ttl = 50;
/* Servers 0 and 1 are reached through proxies that can hold replies back. */
$proxies = [new RLProxy($servers[0]->port), new RLProxy($servers[1]->port)];
$dsn = $proxies[0]->dsn() . ',' . $proxies[1]->dsn() . ',' . $servers[2]->dsn();
$lock = new RedisLock('job', ['servers' => $dsn, 'prefix' => $prefix, 'ttl' => $ttl, 'quorum_timeout' => 300]);
/* Warm up without a tight limit (valgrind makes the first use of each
 * code path slow), then once with it. */
$setup = new RedisLock('job', rl_quorum_opts($servers, $prefix));
var_dump($setup->acquire(), $setup->release());
var_dump($lock->acquire(), $lock->release());

/* Server 2 grants at once, servers 0 and 1 only after 100 ms: a quorum
 * grants, but by then the 50 ms lease is spent. */
$watch = [1 => new RLQuorumMonitor($servers[1]), 2 => new RLQuorumMonitor($servers[2])];
$proxies[0]->fault('delay 100');
$proxies[1]->fault('delay 100');
try {
    $t = hrtime(true);
    try {
        var_dump($lock->acquire());
    } catch (RedisLockException $e) {
        echo rl_quorum_msg($e, $servers), "\n";
    }
    $ms = rl_quorum_ms($t);
    echo $ms > $ttl ? "slower than the ttl\n" : "took only $ms ms\n";
    var_dump($lock->token(), $lock->remaining());
    /* Each server that granted saw our SET and then a command taking that
     * token back (the key may also have expired by itself meanwhile). */
    foreach ($watch as $i => $m) {
        $set = $token = null;
        foreach ($m->lines() as $l) {
            if (preg_match('/^"SET" "' . preg_quote($prefix, '/') . 'job" "([0-9a-f]{32})" "NX" "PX" "50"$/', $l, $x)) {
                $set = $token = $x[1];
            } elseif ($token !== null && str_contains($l, "\"$token\"") && !str_starts_with($l, '"SET"')) {
                $set = 'taken back';
            }
        }
        echo "server $i: ", $set === 'taken back' ? 'taken back' : var_export($set, true), "\n";
    }
    var_dump(rl_quorum_keys([1 => $servers[1], 2 => $servers[2]]));
} finally {
    $proxies[0]->pass();
    $proxies[1]->pass();
}
/* Whatever reaches the thawed server expires with its 50 ms lease. */
usleep(200000);
var_dump(rl_quorum_keys($servers));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
slower than the ttl
NULL
int(0)
server 1: taken back
server 2: taken back
array(2) {
  [1]=>
  array(0) {
  }
  [2]=>
  array(0) {
  }
}
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
