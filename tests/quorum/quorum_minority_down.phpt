--TEST--
Quorum: a minority of servers down is not an error; acquire() and release() succeed on the rest
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_minority_down:';

foreach ([[3, 1], [5, 2]] as [$n, $down]) {
    echo "$n servers, $down down\n";
    $servers = rl_quorum_servers($n);
    $lock = new RedisLock('job', rl_quorum_opts($servers, $prefix));
    /* Warm connections first, as a long-running worker would have them. */
    var_dump($lock->acquire(), $lock->release());
    for ($i = 0; $i < $down; $i++) {
        rl_quorum_stop($servers[$i]);
    }
    $up = array_slice($servers, $down);
    /* Twice: over the connections the kill broke, then over fresh attempts. */
    for ($round = 0; $round < 2; $round++) {
        try {
            var_dump($lock->acquire());
        } catch (RedisLockException $e) {
            echo rl_quorum_msg($e, $servers), "\n";
        }
        var_dump($lock->remaining() > 0);
        var_dump(array_unique(rl_quorum_values($up, $prefix . 'job')) === [$lock->token()]);
        var_dump($lock->release());
        var_dump(array_merge(...rl_quorum_keys($up)));
    }
    foreach ($servers as $s) {
        $s->stop();
    }
}
?>
--EXPECT--
3 servers, 1 down
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
5 servers, 2 down
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
