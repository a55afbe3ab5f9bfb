--TEST--
RedisLock::stats(): a grant or an extend that sync_replicas refused (too few replicas acknowledged it) is not counted as acquired or extended
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$master = new RLServer(['--repl-diskless-sync-delay', '0']);
$replica = new RLServer(['--replicaof', '127.0.0.1', (string) $master->port]);
$m = $master->client();
for ($i = 0, $ok = 0; $i < 200 && $ok < 3; $i++) {
    $m->cmd('SET', 'sync:probe', (string) $i);
    $ok = $m->cmd('WAIT', '1', '100') === 1 ? $ok + 1 : 0;
}
$m->cmd('DEL', 'sync:probe');

/* The counters that moved since the last call. */
function delta(?string $what): void
{
    static $last;
    $now = RedisLock::stats();
    if ($what !== null) {
        $moved = [];
        foreach (['acquired', 'contended', 'extended', 'extend_failed', 'released', 'released_lost'] as $k) {
            if ($now[$k] !== $last[$k]) {
                $moved[] = "$k+" . ($now[$k] - $last[$k]);
            }
        }
        echo "$what: ", implode(' ', $moved) ?: '-', "\n";
    }
    $last = $now;
}
function attempt(callable $fn): string
{
    try {
        return var_export($fn(), true);
    } catch (RedisLock\ConnectionException) {
        return 'ConnectionException';
    }
}

$one = new RedisLock('sync', ['servers' => $master->dsn(), 'sync_replicas' => 1, 'read_timeout' => 400]);
$two = new RedisLock('sync2', ['servers' => $master->dsn(), 'sync_replicas' => 2, 'read_timeout' => 400]);
delta(null);
echo attempt(fn () => $one->acquire()), "\n";
delta('acquire, acknowledged');
echo attempt(fn () => $one->extend()), "\n";
delta('extend, acknowledged');
echo attempt(fn () => $two->acquire()), "\n";
delta('acquire, refused for want of replicas');
$replica->stop();
echo attempt(fn () => $one->extend()), "\n";
delta('extend, refused for want of replicas');
var_dump($m->cmd('EXISTS', 'sync'), $m->cmd('EXISTS', 'sync2'));
?>
--EXPECT--
true
acquire, acknowledged: acquired+1
true
extend, acknowledged: extended+1
ConnectionException
acquire, refused for want of replicas: -
ConnectionException
extend, refused for want of replicas: extend_failed+1
int(0)
int(0)
