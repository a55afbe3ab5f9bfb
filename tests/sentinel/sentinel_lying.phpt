--TEST--
redis-sentinel://: a Sentinel that lies (names a replica, a master of another deployment, an address where nothing listens) never gets a lock granted on the node it names: with several Sentinels the master is the one a majority names, and a node named by too few or that is not a master is an error, never a grant
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';
require __DIR__ . '/../proxy.inc';
$s = new RLSentinels();
$master = $s->masterPort();
$replica = $s->nodes[0]->port === $master ? $s->nodes[1]->port : $s->nodes[0]->port;
/* A master of another deployment, with the same password. */
$decoy = new RLServer();
$decoy->client()->cmd('CONFIG', 'SET', 'requirepass', RL_SENTINEL_DATA_PW);
$nowhere = rl_free_port();

/* A Sentinel behind a proxy that answers every GET-MASTER-ADDR-BY-NAME with
 * the address on $port. */
function liar(RLSentinels $s, int $i, int $port): RLProxy
{
    $p = new RLProxy($s->ports[$i]);
    $p->fault('times=0 cmd=SENTINEL wrongtype *2\r\n$9\r\n127.0.0.1\r\n$' . strlen((string) $port) . '\r\n' . $port);
    return $p;
}
/* A DSN of the Sentinels on these ports, in this order. */
function dsn(int ...$ports): string
{
    return 'redis-sentinel://:' . RL_SENTINEL_DATA_PW . '@' . implode(',', array_map(fn ($p) => "127.0.0.1:$p", $ports))
        . '?master=' . RL_SENTINEL_MASTER . '&sentinel_password=' . RL_SENTINEL_PW;
}
/* (The replica has what the master has: where a grant ran is told by the
 * master and the decoy.) */
$where = [$master => 'the master', $decoy->port => 'the decoy'];
/* Takes the lock through $dsn; says where its key went, or why not. */
function take(string $what, string $dsn, array $where, RLSentinels $s, RLServer $decoy): void
{
    $l = new RedisLock('sentinel:liar', ['servers' => $dsn, 'connect_timeout' => 1000, 'read_timeout' => 2000]);
    try {
        $ok = $l->acquire();
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ': ', preg_replace(['/127\.0\.0\.1:\d+/', '/\(\d+ of \d+ named one, at most \d+ the same/'],
            ['ADDR', '(...'], $e->getMessage()), "\n";
        return;
    }
    $on = [];
    foreach ($where as $port => $name) {
        $c = $port === $decoy->port ? rl_auth_client($port, RL_SENTINEL_DATA_PW) : $s->node($port);
        if ($c->cmd('GET', 'sentinel:liar') === $l->token()) {
            $on[] = $name;
        }
    }
    echo "$what: ", var_export($ok, true), ' on ', implode(', ', $on) ?: 'nothing', "\n";
    $l->release();
}

$to_replica = liar($s, 0, $replica);
$to_decoy = liar($s, 0, $decoy->port);
$to_nowhere = liar($s, 0, $nowhere);
$to_replica2 = liar($s, 1, $replica);

take('one liar first, naming the replica', dsn($to_replica->port, $s->ports[1], $s->ports[2]), $where, $s, $decoy);
take('one liar first, naming another master', dsn($to_decoy->port, $s->ports[1], $s->ports[2]), $where, $s, $decoy);
take('one liar first, naming nowhere', dsn($to_nowhere->port, $s->ports[1], $s->ports[2]), $where, $s, $decoy);
take('two liars of three, naming the replica', dsn($to_replica->port, $to_replica2->port, $s->ports[2]), $where, $s, $decoy);
take('one liar and one honest', dsn($to_decoy->port, $s->ports[1]), $where, $s, $decoy);
take('the only Sentinel, naming the replica', dsn($to_replica->port), $where, $s, $decoy);
take('honest', dsn(...$s->ports), $where, $s, $decoy);
?>
--EXPECT--
one liar first, naming the replica: true on the master
one liar first, naming another master: true on the master
one liar first, naming nowhere: true on the master
two liars of three, naming the replica: RedisLock\ConnectionException: acquire failed: the Sentinels name ADDR as master of rlmaster, but its role is slave (a failover under way?)
one liar and one honest: RedisLock\ConnectionException: acquire failed: no master for rlmaster named by a majority of the Sentinels (..., 2 needed)
the only Sentinel, naming the replica: RedisLock\ConnectionException: acquire failed: the Sentinels name ADDR as master of rlmaster, but its role is slave (a failover under way?)
honest: true on the master
