--TEST--
Quorum: a round ends as soon as its outcome is known; a frozen minority does not cost every call its quorum_timeout, a server that keeps failing is left out for a second, and the lock still needs a quorum of all servers
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_decided_at_quorum:';
$servers = rl_quorum_servers(3);
/* A quorum_timeout far longer than anything else here: waiting it out
 * even once per call would show. */
$opts = rl_quorum_opts($servers, $prefix, ['quorum_timeout' => 3000]);
$lock = new RedisLock('job', $opts);
var_dump($lock->acquire(), $lock->release());

$servers[2]->freeze();
try {
    $t = hrtime(true);
    $ok = 0;
    for ($i = 0; $i < 20; $i++) {
        $ok += $lock->acquire() && $lock->release();
    }
    $ms = rl_quorum_ms($t);
    echo "20 cycles with one server of three frozen: $ok granted and released, ",
        $ms < 3000 ? "none waited for the frozen server's timeout\n" : "took $ms ms\n";

    echo "another holder on one of the two live servers: no quorum is free\n";
    $servers[1]->client()->cmd('SET', $prefix . 'job', 'someone-else', 'PX', '60000');
    $t = hrtime(true);
    var_dump($lock->acquire());
    echo rl_quorum_ms($t) < 3000 ? "decided without the frozen server\n" : "waited\n";
    $servers[1]->client()->cmd('DEL', $prefix . 'job');

    echo "two of three frozen: no quorum, in bounded time\n";
    $servers[1]->freeze();
    try {
        $lock->acquire();
    } catch (RedisLock\ConnectionException $e) {
        echo substr($e->getMessage(), 0, strpos($e->getMessage(), ')') + 1), "\n";
    }
    $servers[1]->thaw();
} finally {
    $servers[2]->thaw();
}
/* Back after its second out: a lock taken then holds all three again. */
usleep(1100000);
$servers[2]->client()->cmd('PING');
var_dump($lock->acquire(2000));
var_dump(rl_quorum_values($servers, $prefix . 'job') === [$lock->token(), $lock->token(), $lock->token()]);
var_dump($lock->release());
?>
--EXPECT--
bool(true)
bool(true)
20 cycles with one server of three frozen: 20 granted and released, none waited for the frozen server's timeout
another holder on one of the two live servers: no quorum is free
bool(false)
decided without the frozen server
two of three frozen: no quorum, in bounded time
acquire failed: no quorum (2 of 3 servers needed, 2 failed)
bool(true)
bool(true)
bool(true)
