--TEST--
Quorum: a server left out for failing its last rounds is asked after all when the others do not settle the answer (one yes, one no): release() answers false instead of throwing
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_left_out_asked:';
$servers = rl_quorum_servers(3);
$opts = rl_quorum_opts($servers, $prefix, ['ttl' => 10000, 'quorum_timeout' => 300]);
/* Connections, scripts and code paths warmed up without a tight limit
 * (valgrind makes the first use of each slow). */
$setup = new RedisLock('k', rl_quorum_opts($servers, $prefix));
var_dump($setup->acquire(), $setup->release());
$strike = new RedisLock('strike', $opts);
$lock = new RedisLock('k', $opts);
var_dump($strike->acquire(), $strike->release());

/* Server 2 frozen for three rounds is given up in each (the other two make
 * the quorum), and then left out, for a second, of the rounds the other two
 * can decide. Should that second pass before the lock is taken (a slow
 * machine), the lock is found on server 2 and the whole is tried again. */
$tested = false;
for ($try = 0; $try < 5 && !$tested; $try++) {
    $servers[2]->freeze();
    try {
        for ($i = 0; $i < 3; $i++) {
            if (!$strike->acquire() || !$strike->release()) {
                echo "strike round $i failed\n";
            }
        }
    } finally {
        $servers[2]->thaw();
    }
    $servers[2]->client()->cmd('PING');
    if (!$lock->acquire()) {
        echo "not acquired\n";
        break;
    }
    if ($servers[2]->client()->cmd('GET', $prefix . 'k') !== null) {
        $lock->release();
        continue;
    }
    $tested = true;
    echo "server 2 was left out of the acquire\n";
    /* Ours lost on server 1: server 0 says yes, server 1 no. Server 2,
     * answering again, settles it: the lock was not ours on a quorum. */
    $servers[1]->client()->cmd('DEL', $prefix . 'k');
    try {
        var_dump($lock->release());
    } catch (RedisLockException $e) {
        echo rl_quorum_msg($e, $servers), "\n";
    }
    var_dump(rl_quorum_values($servers, $prefix . 'k'));
}
var_dump($tested);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
server 2 was left out of the acquire
bool(false)
array(3) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  NULL
}
bool(true)
