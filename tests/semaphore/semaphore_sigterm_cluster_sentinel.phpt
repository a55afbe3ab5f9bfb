--TEST--
Semaphore: a process killed by SIGTERM gives its permits back at once on a Redis Cluster (each name on the node of its slot) and through Sentinel (on the master)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../sentinel.inc';
require __DIR__ . '/../sigterm.inc';

/* Takes 2 of the 3 permits of each name in $argv[3...] (alone in the holder
 * key) and one of 3 beside them (in the holds) for a minute, sleeps. */
const HOLDER = <<<'PHP'
[, $dsn, $prefix] = $argv;
foreach (array_slice($argv, 3) as $name) {
    $o = ['servers' => $dsn, 'prefix' => $prefix, 'ttl' => 60000];
    $GLOBALS['held'][] = $a = new RedisLock\Semaphore($name, 3, $o + ['weight' => 2]);
    $GLOBALS['held'][] = $b = new RedisLock\Semaphore($name, 3, $o);
    if (!$a->acquire() || !$b->acquire()) {
        exit(3);
    }
}
echo "held\n";
sleep(30);
echo "not killed\n";
PHP;

/* The permits free of each name, by a process of its own. */
function free_of(string $dsn, string $prefix, array $names): array
{
    return array_map(fn($n) => (new RedisLock\Semaphore($n, 3, ['servers' => $dsn, 'prefix' => $prefix]))->available(), $names);
}

function run(string $what, string $dsn, string $prefix, array $names): void
{
    $c = rl_sigterm_start(HOLDER, array_merge([$dsn, $prefix], $names));
    echo "$what: ", $c['line'], ' ', json_encode(array_unique(free_of($dsn, $prefix, $names))), "\n";
    rl_kill($c['pid'], SIGTERM);
    $end = rl_sigterm_end($c);
    echo "$what: ended by signal ", $end['signal'] ?? 'none', $end['output'] !== '' ? " ({$end['output']})" : '', "\n";
    $back = rl_sigterm_until(fn() => array_unique(free_of($dsn, $prefix, $names)) === [3]);
    echo "$what: released: ", var_export($back, true), "\n";
}

$c = new RLCluster();
$names = array_map(fn($i) => "pool$i", range(0, 5));
run('cluster', $c->dsn(), 'semtermcl:', $names);
$masters = [];
foreach ($names as $n) {
    $masters[$c->masterOf($c->slot("semtermcl:$n:redislock-semaphore"))] = true;
}
echo 'names on ', count($masters), " masters\n";
$s = new RLSentinels();
run('sentinel', $s->dsn(), 'semtermsn:', ['pool']);
?>
--EXPECT--
cluster: held [0]
cluster: ended by signal 15
cluster: released: true
names on 3 masters
sentinel: held [0]
sentinel: ended by signal 15
sentinel: released: true
