--TEST--
Quorum: a frozen minority costs about quorum_timeout, and that time is taken off the validity
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_minority_frozen:';
$servers = rl_quorum_servers(3);
$ttl = 10000;
$qt = 200;
$warm = new RedisLock('job', rl_quorum_opts($servers, $prefix, ['ttl' => $ttl, 'quorum_timeout' => $qt]));
$cold = new RedisLock('job', rl_quorum_opts($servers, $prefix, ['ttl' => $ttl, 'quorum_timeout' => $qt, 'persistent' => false]));
/* Connections, scripts and code paths warmed up without a tight limit
 * (valgrind makes the first use of each slow). */
$setup = new RedisLock('job', rl_quorum_opts($servers, $prefix));
var_dump($setup->acquire(), $setup->release());
var_dump($warm->acquire(), $warm->release());

$tokens = [];
$servers[0]->freeze();
try {
    /* Over a warm connection (the command waits), then over a new one
     * (the connect succeeds, the handshake waits). */
    foreach (['warm' => $warm, 'new connection' => $cold] as $what => $lock) {
        echo "$what\n";
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
        $tokens[] = $lock->token();
        var_dump(rl_quorum_values(array_slice($servers, 1, null, true), $prefix . 'job') === [1 => $lock->token(), 2 => $lock->token()]);
        var_dump($lock->release());
        var_dump(rl_quorum_keys(array_slice($servers, 1, null, true)));
    }
} finally {
    $servers[0]->thaw();
}
/* The frozen server runs what was left in its socket when it wakes: an
 * earlier SET may land there after its release had timed out. Such a
 * leftover is one of ours, and expires with its lease at the latest. */
$c = $servers[0]->client();
$c->cmd('PING');
$v = $c->cmd('GET', $prefix . 'job');
$pttl = $c->cmd('PTTL', $prefix . 'job');
var_dump($v === null || (in_array($v, $tokens, true) && $pttl > 0 && $pttl <= $ttl));
/* A server given up in three rounds in a row is left out of the rounds
 * that can do without it for a second. After that, the leftover token goes
 * ahead of the next command this process sends to the thawed server, in
 * the same write: a quorum lock taken then holds all three. */
usleep(1100000);
var_dump($warm->acquire(5000));
$values = rl_quorum_values($servers, $prefix . 'job');
var_dump($values === [0 => $warm->token(), 1 => $warm->token(), 2 => $warm->token()]);
var_dump($warm->release());
var_dump(rl_quorum_values($servers, $prefix . 'job') === [0 => null, 1 => null, 2 => null]);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
warm
bool(true)
bounded wait
validity reduced
bool(true)
bool(true)
array(2) {
  [1]=>
  array(0) {
  }
  [2]=>
  array(0) {
  }
}
new connection
bool(true)
bounded wait
validity reduced
bool(true)
bool(true)
array(2) {
  [1]=>
  array(0) {
  }
  [2]=>
  array(0) {
  }
}
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
