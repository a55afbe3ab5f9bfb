--TEST--
Semaphore on a Redis Cluster (names spread over three masters, every key of one name in one slot; waits woken there too) and through Sentinel
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../sentinel.inc';
require __DIR__ . '/../contention.inc';

/* Two permits a name: the third is refused, a waiter is woken by a release,
 * and everything is freed at the end. */
function exercise(string $dsn, string $prefix): string
{
    $o = ['servers' => $dsn, 'prefix' => $prefix, 'ttl' => 10000];
    $ok = 0;
    for ($i = 0; $i < 12; $i++) {
        $s = [new RedisLock\Semaphore("pool$i", 2, $o), new RedisLock\Semaphore("pool$i", 2, $o), new RedisLock\Semaphore("pool$i", 2, $o)];
        $r = [$s[0]->acquire(), $s[1]->acquire(), $s[2]->acquire(), $s[2]->available()];
        $ok += $r === [true, true, false, 0] ? 1 : 0;
        $s[0]->release();
        $s[1]->release();
    }
    /* A woken wait. */
    $holder = new RedisLock\Semaphore('waited', 1, $o);
    $holder->acquire();
    $pid = rl_cont_spawn(function () use ($holder): int {
        return $holder->release() ? 0 : 2; /* a forked child releases nothing */
    });
    $childReleased = rl_cont_reap($pid);
    $releaser = rl_cont_spawn(function () use ($o): int {
        usleep(300000);
        return RedisLock\Semaphore::forceRelease('waited', $o) ? 0 : 2;
    });
    $w = new RedisLock\Semaphore('waited', 1, $o);
    $got = $w->acquire(10000);
    $forced = rl_cont_reap($releaser);
    $w->release();
    return "$ok of 12 names as expected, child's release refused " . json_encode($childReleased === 2)
        . ', woken wait ' . json_encode([$got, $forced]);
}

echo "cluster\n";
$c = new RLCluster();
echo exercise($c->dsn(), 'semcl:'), "\n";
$o = ['servers' => $c->dsn(), 'prefix' => 'semcl:', 'ttl' => 10000];
$masters = [];
$slots = [];
for ($i = 0; $i < 12; $i++) {
    $s = new RedisLock\Semaphore("pool$i", 2, $o);
    $s->acquire();
    $w = new RedisLock\Semaphore("pool$i", 1, $o);
    $w->acquire(150); /* marks it waited for: the marker and wake-up keys exist now */
    $keys = $c->keys("*semcl:pool$i:*");
    $slots[] = count(array_unique(array_map(fn($k) => $c->slot($k), array_keys($keys))));
    foreach ($keys as $port) {
        $masters[$port] = true;
    }
    $s->release();
}
echo 'keys of a name in one slot: ', json_encode(array_unique($slots)), ', names on ', count($masters), " masters\n";

echo "sentinel\n";
$s = new RLSentinels();
echo exercise($s->dsn(), 'semsn:'), "\n";
?>
--EXPECT--
cluster
12 of 12 names as expected, child's release refused true, woken wait [true,0]
keys of a name in one slot: [1], names on 3 masters
sentinel
12 of 12 names as expected, child's release refused true, woken wait [true,0]
