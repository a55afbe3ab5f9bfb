--TEST--
Quorum: a minority server whose connects hang (a host that is off) costs at most quorum_timeout and is not an error
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (trim((string) @file_get_contents('/proc/sys/net/ipv4/tcp_abort_on_overflow')) === '1') {
    die('skip a full accept queue resets connections here instead of dropping them');
}
?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_minority_unreachable:';
$key = $prefix . 'job';
$ttl = 10000;
$qt = 200;
/* The unreachable one is listed first: its connect comes first. */
$servers = [new RLServer(['--tcp-backlog', '1']), new RLServer(), new RLServer()];
$up = [1 => $servers[1], 2 => $servers[2]];
$setup = new RedisLock('job', rl_quorum_opts($servers, $prefix));
var_dump($setup->acquire(), $setup->release());

/* Its pooled connection broken by a restart, so a new one must be opened. */
rl_quorum_restart($servers[0]);
$hold = rl_quorum_unreachable($servers[0]);
try {
    foreach (['pooled connections' => [], 'new connections' => ['persistent' => false]] as $what => $extra) {
        echo "$what\n";
        $lock = new RedisLock('job', rl_quorum_opts($servers, $prefix, $extra + ['ttl' => $ttl, 'quorum_timeout' => $qt]));
        for ($round = 0; $round < 2; $round++) {
            $t = hrtime(true);
            try {
                var_dump($lock->acquire());
            } catch (RedisLockException $e) {
                echo rl_quorum_msg($e, $servers), "\n";
            }
            $ms = rl_quorum_ms($t);
            $left = $lock->remaining();
            echo $ms < $qt + 1000 ? "bounded wait\n" : "waited $ms ms\n";
            echo $left > 0 && $left <= $ttl - $ms ? "validity reduced\n" : "remaining $left after $ms ms\n";
            var_dump(rl_quorum_values($up, $key) === [1 => $lock->token(), 2 => $lock->token()]);
            try {
                var_dump($lock->release());
            } catch (RedisLockException $e) {
                echo rl_quorum_msg($e, $servers), "\n";
            }
            var_dump(rl_quorum_values($up, $key));
        }
    }
} finally {
    $servers[0]->thaw();
    $hold = [];
}
?>
--EXPECT--
bool(true)
bool(true)
pooled connections
bool(true)
bounded wait
validity reduced
bool(true)
bool(true)
array(2) {
  [1]=>
  NULL
  [2]=>
  NULL
}
bool(true)
bounded wait
validity reduced
bool(true)
bool(true)
array(2) {
  [1]=>
  NULL
  [2]=>
  NULL
}
new connections
bool(true)
bounded wait
validity reduced
bool(true)
bool(true)
array(2) {
  [1]=>
  NULL
  [2]=>
  NULL
}
bool(true)
bounded wait
validity reduced
bool(true)
bool(true)
array(2) {
  [1]=>
  NULL
  [2]=>
  NULL
}
