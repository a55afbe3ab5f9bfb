--TEST--
Quorum: a list naming one server twice under two names (127.0.0.1 and localhost, or its unix socket and its TCP port) is found by the server's run id when the connections open, and every operation throws RedisLockException (code CONFIG) naming both: never false, never a lock counted twice
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$sock = RL_RUNDIR . '/same-server-' . getmypid() . '.sock';
$servers = [new RLServer(['--unixsocket', $sock, '--unixsocketperm', '700']), new RLServer()];
$a = $servers[0]->port;
$b = $servers[1]->port;
$prefix = 'rltest:quorum_same_server_two_names:';

$show = function (Throwable $e) use ($servers, $sock) {
    echo $e->getCode() === RedisLockException::CONFIG ? 'CONFIG ' : $e->getCode() . ' ',
        str_replace($sock, 'SOCKET', rl_quorum_msg($e, $servers)), "\n";
};
foreach ([
    "redis://127.0.0.1:$a,redis://localhost:$a" => [true, false],
    "redis://127.0.0.1:$a,redis://localhost:$a,redis://127.0.0.1:$b" => [true],
    "unix://$sock,redis://127.0.0.1:$a,redis://127.0.0.1:$b" => [true],
] as $list => $persistence) {
    foreach ($persistence as $persistent) {
        echo "list of ", substr_count($list, ',') + 1, $persistent ? ", persistent\n" : ", not persistent\n";
        $options = ['servers' => $list, 'prefix' => $prefix, 'quorum_timeout' => 2000, 'persistent' => $persistent];
        $lock = new RedisLock('job', $options);
        /* Again and again: the connections stay open, the answer stays. */
        for ($i = 0; $i < 3; $i++) {
            try {
                var_dump($lock->acquire());
            } catch (RedisLockException $e) {
                $show($e);
            }
        }
        var_dump($lock->isAcquired());
        try {
            var_dump(RedisLock::forceRelease('job', $options));
        } catch (RedisLockException $e) {
            $show($e);
        }
    }
}

echo "the servers themselves, each named once, make a quorum\n";
$lock = new RedisLock('job', rl_quorum_opts($servers, $prefix));
var_dump($lock->acquire(), $lock->release());
?>
--EXPECT--
list of 2, persistent
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
bool(false)
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
list of 2, not persistent
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
bool(false)
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
list of 3, persistent
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
bool(false)
CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and localhost:PORT are the same server (same run id)
list of 3, persistent
CONFIG RedisLockException: the quorum list names one server twice: SOCKET and 127.0.0.1:PORT are the same server (same run id)
CONFIG RedisLockException: the quorum list names one server twice: SOCKET and 127.0.0.1:PORT are the same server (same run id)
CONFIG RedisLockException: the quorum list names one server twice: SOCKET and 127.0.0.1:PORT are the same server (same run id)
bool(false)
CONFIG RedisLockException: the quorum list names one server twice: SOCKET and 127.0.0.1:PORT are the same server (same run id)
the servers themselves, each named once, make a quorum
bool(true)
bool(true)
