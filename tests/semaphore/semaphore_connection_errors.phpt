--TEST--
Semaphore: an outcome that is not known (server unreachable, frozen, gone during a wait) is a RedisLock\ConnectionException, never false
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$srv = new RLServer();
$o = ['servers' => $srv->dsn(), 'ttl' => 10000, 'read_timeout' => 300, 'connect_timeout' => 300];
$holder = new RedisLock\Semaphore('pool', 1, $o);
$s = new RedisLock\Semaphore('pool', 1, $o);
echo json_encode([$holder->acquire(), $s->acquire()]), "\n";
$show = function (string $what, callable $f) {
    try {
        $r = $f();
        echo "$what: ", json_encode($r), "\n";
    } catch (RedisLock\ConnectionException $e) {
        echo "$what: ConnectionException\n";
    }
};
$srv->freeze();
foreach (['acquire' => fn() => $s->acquire(), 'release' => fn() => $holder->release(), 'extend' => fn() => $holder->extend(),
    'isAcquired' => fn() => $holder->isAcquired(), 'available' => fn() => $s->available(),
    'forceRelease' => fn() => RedisLock\Semaphore::forceRelease('pool', $o)] as $what => $f) {
    $show("frozen, $what", $f);
}
$srv->thaw();
echo 'thawed, still held ', json_encode($holder->isAcquired()), "\n";
/* The server goes while the waiter is blocked on it. */
$killer = rl_cont_spawn(function () use ($srv): int {
    usleep(400000);
    exec('kill -KILL ' . $srv->pid);
    return 0;
});
$show('server gone during a wait', fn() => $s->acquire(5000));
rl_cont_reap($killer);
$srv->stop();
$show('stopped, acquire', fn() => $s->acquire());
?>
--EXPECT--
[true,false]
frozen, acquire: ConnectionException
frozen, release: ConnectionException
frozen, extend: ConnectionException
frozen, isAcquired: ConnectionException
frozen, available: ConnectionException
frozen, forceRelease: ConnectionException
thawed, still held true
server gone during a wait: ConnectionException
stopped, acquire: ConnectionException
