--TEST--
Quorum: a list naming one server twice, one name behind a slow link, throws RedisLockException (code CONFIG) on every operation: the slow name's connection, given up once a quorum answered and closed (it owed too many replies to keep), still counts by the run id it learnt, so its server is never counted twice and no acquire() is true
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
require __DIR__ . '/../proxy.inc';
$servers = [new RLServer(), new RLServer()];
$a = $servers[0]->port;
$b = $servers[1]->port;
/* The second name of server a: a proxy that holds every reply after the
 * handshake's 300 ms, so that a and b have answered long before it. */
$proxy = new RLProxy($a);
$proxy->fault('delay 300');
$prefix = 'rltest:quorum_same_server_slow_name:';
$list = "redis://127.0.0.1:$a,redis://127.0.0.1:{$proxy->port},redis://127.0.0.1:$b";
$lock = new RedisLock('job', ['servers' => $list, 'prefix' => $prefix, 'quorum_timeout' => 2000]);

/* Each refused acquire leaves its token to remove on every server: they
 * ride ahead of the next command, until the slow name's command owes more
 * replies than a connection given up may keep. */
$seen = [];
for ($i = 0; $i < 16; $i++) {
    try {
        $seen[] = var_export($lock->acquire(), true);
    } catch (RedisLockException $e) {
        $seen[] = ($e->getCode() === RedisLockException::CONFIG ? 'CONFIG ' : $e->getCode() . ' ')
            . str_replace((string) $proxy->port, 'SLOW', rl_quorum_msg($e, $servers));
    }
}
foreach (array_count_values($seen) as $what => $times) {
    echo "$times x $what\n";
}
var_dump($lock->isAcquired());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:quorum_same_server_slow_name:');
?>
--EXPECT--
16 x CONFIG RedisLockException: the quorum list names one server twice: 127.0.0.1:PORT and 127.0.0.1:SLOW are the same server (same run id)
bool(false)
