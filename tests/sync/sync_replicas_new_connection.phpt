--TEST--
sync_replicas: when the connection that took a grant is closed before the check (the check then goes on a new one, and a WAIT counts only the writes of its own connection), the grant counts only once the replicas acknowledged the key as it is: a server whose replica has not is never counted
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:sync_replicas_new_connection:';

/* A master with a replica that acknowledges writes promptly. */
function replicated(): array
{
    $master = new RLServer(['--repl-diskless-sync-delay', '0']);
    $replica = new RLServer(['--replicaof', '127.0.0.1', (string) $master->port]);
    $m = $master->client();
    for ($i = 0, $ok = 0; $i < 200 && $ok < 3; $i++) {
        $m->cmd('SET', 'sync:probe', (string) $i);
        $ok = $m->cmd('WAIT', '1', '100') === 1 ? $ok + 1 : 0;
    }
    $m->cmd('DEL', 'sync:probe');
    return [$master, $replica];
}

/*
 * A quorum of three: A (its replica stopped below) behind a proxy that
 * closes the connection right after the grant's reply (SET NX); B, whose replica
 * keeps up, behind a proxy that holds its replies 300 ms, so that the
 * grant round waits for B while A's close arrives (the check then finds
 * A's connection closed and opens another); C, held by someone else.
 */
[$a, $ra] = replicated();
[$b, $rb] = replicated();
$c = new RLServer();
$pa = new RLProxy($a->port);
$pb = new RLProxy($b->port);
$servers = $pa->dsn() . ',' . $pb->dsn() . ',' . $c->dsn();
$opts = ['servers' => $servers, 'prefix' => $p, 'sync_replicas' => 1, 'read_timeout' => 1500, 'ttl' => 30000,
    'quorum_timeout' => 3000];
/* The scripts loaded and the connections open, so that the faults hit the grant. */
$warm = new RedisLock('warm', $opts);
var_dump($warm->acquire(), $warm->release());
$c->client()->cmd('SET', $p . 'job', str_repeat('0', 32), 'PX', '30000');

function attempt(RedisLock $l): void
{
    try {
        $r = $l->acquire();
        echo 'acquire: ', var_export($r, true), "\n";
    } catch (RedisLock\ConnectionException $e) {
        echo 'acquire: ConnectionException: ', preg_replace('/within \d+ ms.*$/', 'within N ms ...', $e->getMessage()), "\n";
    }
}

echo "-- both replicas keep up\n";
$pa->fault('cmd=SET close_after');
$pb->fault('delay 300');
$accepted = $pa->stats()['accepted'];
$l = new RedisLock('job', $opts);
attempt($l);
var_dump($pa->stats()['accepted'] > $accepted); /* the check went on a new connection */
var_dump($ra->client()->cmd('GET', $p . 'job') === $l->token(), $rb->client()->cmd('GET', $p . 'job') === $l->token());
$pb->pass();
var_dump($l->release());

echo "-- A's replica stopped: A is not counted, and without it there is no quorum\n";
$ra->freeze();
try {
    $pa->fault('cmd=SET close_after');
    $pb->fault('delay 300');
    $accepted = $pa->stats()['accepted'];
    $l = new RedisLock('job', $opts);
    attempt($l);
    var_dump($pa->stats()['accepted'] > $accepted);
    $pb->pass();
    var_dump($l->token(), $a->client()->cmd('EXISTS', $p . 'job'), $b->client()->cmd('EXISTS', $p . 'job'));
} finally {
    $ra->thaw();
}
$pa->stop();
$pb->stop();
?>
--EXPECT--
bool(true)
bool(true)
-- both replicas keep up
acquire: true
bool(true)
bool(true)
bool(true)
bool(true)
-- A's replica stopped: A is not counted, and without it there is no quorum
acquire: ConnectionException: acquire: fewer than 1 replica(s) acknowledged it within N ms ...
bool(true)
NULL
int(0)
int(0)
