--TEST--
ZooKeeperLock: the link to ZooKeeper goes silent (the server keeps running) and the server expires the session before the client notices: once another process holds the lock, acquire() and isAcquired() of the old holder never say true
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../zookeeper.inc';
if ($why = rl_zk_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../zookeeper.inc';
$zk = new RLZooKeeper();
$proxy = new RLZooKeeperProxy($zk);
/* 3000 ms: within the server's bounds (tickTime 500), and the client
 * notices silence only 2/3 of it after the last answer. */
$a = new RedisLock\ZooKeeperLock('silent', ['hosts' => $proxy->hosts(), 'connect_timeout' => RL_ZK_CONNECT,
    'session_timeout' => 3000]);
var_dump($a->acquire());

/* B: another process, straight to the server, waiting in line behind A. */
$b = rl_proxy_child('
    $l = new RedisLock\ZooKeeperLock("silent", ["hosts" => $argv[1], "connect_timeout" => 10000]);
    echo "WAITING\n";
    echo $l->acquire(120000) ? "HELD\n" : "NOT HELD\n";
    stream_get_contents(STDIN);
    echo $l->release() ? "RELEASED\n" : "NOT RELEASED\n";
', [$zk->hosts()]);
var_dump(rl_proxy_read_line($b['out'], 30000));
var_dump(rl_zk_until(fn() => count($zk->queue('/redislock/silent')) === 2, 30000));

echo "the link goes silent\n";
$proxy->control('silence');
stream_set_blocking($b['out'], false);
$bHeld = null;          /* hrtime when A learnt that B holds the lock */
$answers = ['true' => 0, 'false' => 0, 'unknown' => 0];
$wrong = [];
/* Asks A with $fn; a true that began after B was known to hold is wrong. */
$ask = function (string $what, callable $fn) use (&$bHeld, &$answers, &$wrong) {
    $after = $bHeld !== null;
    try {
        $r = $fn();
    } catch (RedisLock\ConnectionException $e) {
        $r = null;
    }
    if ($after) {
        $answers[$r === null ? 'unknown' : var_export($r, true)]++;
        if ($r === true) {
            $wrong[] = $what;
        }
    }
};
$end = hrtime(true) + 120e9;
/* acquire() on the held object, again and again, until B has held the lock
 * for a while (a client that believes its hold until it notices that its
 * session is gone, 5/3 of the timeout after the last answer, says true for
 * about a second after the server expired it). */
while (hrtime(true) < $end && ($bHeld === null || hrtime(true) - $bHeld < 2e9)) {
    $line = fgets($b['out']);
    if ($line !== false) {
        var_dump(trim($line));
        if (trim($line) === 'HELD') {
            $bHeld = hrtime(true);
        }
    }
    $ask('acquire', fn() => $a->acquire());
    usleep(20000);
}
var_dump($bHeld !== null);
$ask('isAcquired', fn() => $a->isAcquired());
var_dump(array_count_values($wrong));
var_dump($answers['false'] + $answers['unknown'] > 0);

echo "the link is back\n";
$proxy->control('pass');
/* Whatever A heard in between, B holds the lock. */
$ask('acquire', fn() => $a->acquire());
$ask('isAcquired', fn() => $a->isAcquired());
var_dump(array_count_values($wrong));

echo "B lets go, A takes it again\n";
fclose($b['in']);
$b['in'] = fopen('php://memory', 'r');
stream_set_blocking($b['out'], true);
var_dump(rl_proxy_read_line($b['out'], 30000));
var_dump(rl_proxy_reap($b));
var_dump($a->acquire(30000), $a->isAcquired(), $a->release());
var_dump(rl_zk_until(fn() => $zk->ephemerals() === [], 10000));
$proxy->stop();
?>
--EXPECT--
bool(true)
string(7) "WAITING"
bool(true)
the link goes silent
string(4) "HELD"
bool(true)
array(0) {
}
bool(true)
the link is back
array(0) {
}
B lets go, A takes it again
string(8) "RELEASED"
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
