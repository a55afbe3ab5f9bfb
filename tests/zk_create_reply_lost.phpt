--TEST--
ZooKeeperLock: a create whose reply was lost (connection dropped) is found again by its guid when the server carried it out, made again when it did not: one node, held, nothing leaked
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/zookeeper.inc';
if ($why = rl_zk_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/zookeeper.inc';
$zk = new RLZooKeeper();
$port = rl_free_port();
/* Through /bin/sh, which the memory checker does not trace: the proxy is not under test. */
$proxy = proc_open('exec ' . implode(' ', array_map('escapeshellarg', [PHP_BINARY, '-n', __DIR__ . '/zk_proxy.php',
    (string) $port, (string) $zk->port, '600', '2'])), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
var_dump(trim(fgets($pipes[1])));

$opts = ['hosts' => '127.0.0.1:' . $port, 'connect_timeout' => RL_ZK_CONNECT, 'session_timeout' => 10000];
stream_set_blocking($pipes[2], false);
$log = '';
$lost = function (int $n) use ($pipes, &$log) {
    return rl_zk_until(function () use ($pipes, &$log, $n) {
        $log .= (string) stream_get_contents($pipes[2]);
        return substr_count($log, 'LOST ') === $n;
    }, 5000);
};

echo "the server created the node, the reply was lost\n";
/* The parents exist already: the create through the proxy succeeds on the server. */
$direct = new RedisLock\ZooKeeperLock('lost-reply', ['hosts' => $zk->hosts(), 'connect_timeout' => RL_ZK_CONNECT]);
var_dump($direct->acquire(), $direct->release());
$l = new RedisLock\ZooKeeperLock('lost-reply', $opts);
var_dump($l->acquire());
var_dump($lost(1));
var_dump($zk->queue('/redislock/lost-reply') === [$l->token()]);
var_dump($l->isAcquired(), $l->release());
var_dump($zk->ephemerals());

echo "the server refused the create (no parent yet), the reply was lost\n";
$f = new RedisLock\ZooKeeperLock('fresh', $opts);
var_dump($f->acquire());
var_dump($lost(2));
var_dump($zk->queue('/redislock/fresh') === [$f->token()]);
var_dump($f->release());
var_dump($zk->ephemerals());

fclose($pipes[0]);
proc_close($proxy);
?>
--EXPECT--
string(5) "READY"
the server created the node, the reply was lost
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
the server refused the create (no parent yet), the reply was lost
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
