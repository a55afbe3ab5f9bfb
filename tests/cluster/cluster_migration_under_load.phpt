--TEST--
redis-cluster://: a real slot migration (CLUSTER SETSLOT IMPORTING/MIGRATING, MIGRATE of the keys a few at a time, SETSLOT NODE), there and back, under load: waiting acquires, fair mode, releases and the rate limiter on the migrating slot all succeed, with no lost mutual exclusion and no permit over the limit
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
$c = new RLCluster();
$dir = RL_RUNDIR . '/cluster-migration-' . getmypid();
@mkdir($dir, 0700, true);
$stop = "$dir/stop";
const LIMIT = 40;
$opts = ['servers' => $c->dsn(), 'ttl' => 10000, 'read_timeout' => 3000, 'connect_timeout' => 2000];
$slot = $c->slot('mig');
$masters = [];
foreach ($c->nodes as $port => $n) {
    if (($c->client($port)->cmd('ROLE')[0] ?? '') === 'master') {
        $masters[] = $port;
    }
}
$from = $c->masterOf($slot);
$to = $masters[0] === $from ? $masters[1] : $masters[0];

/* Moves the slot from one master to another as redis-cli --cluster
 * reshard does, holding it half-moved for about 300 ms: the keys go one at
 * a time, then the rest, then every master is told the new owner. */
function migrate(RLCluster $c, array $masters, int $slot, int $from, int $to): void
{
    $a = $c->client($from);
    $b = $c->client($to);
    $b->cmd('CLUSTER', 'SETSLOT', (string) $slot, 'IMPORTING', $c->nodeId($from));
    $a->cmd('CLUSTER', 'SETSLOT', (string) $slot, 'MIGRATING', $c->nodeId($to));
    $end = microtime(true) + 0.3;
    for ($i = 0; $i < 1000; $i++) {
        $keys = $a->cmd('CLUSTER', 'GETKEYSINSLOT', (string) $slot, microtime(true) < $end ? '1' : '100');
        if ($keys) {
            $r = $a->cmd('MIGRATE', '127.0.0.1', (string) $to, '', '0', '5000', 'KEYS', ...$keys);
            if ($r instanceof RLError) {
                echo "MIGRATE: {$r->message}\n";
            }
        } elseif (microtime(true) >= $end) {
            break;
        }
        usleep(20000);
    }
    foreach (array_merge([$to, $from], array_diff($masters, [$from, $to])) as $m) {
        $c->client($m)->cmd('CLUSTER', 'SETSLOT', (string) $slot, 'NODE', $c->nodeId($to));
    }
}

/* Three lock workers (two waiting on 'mig', one in fair mode on another
 * name in its slot) doing non-atomic increments under the lock, and one on
 * a rate limiter in the slot, until told to stop. */
$pid = pcntl_fork();
if ($pid === 0) {
    $codes = rl_fork(4, function (int $w) use ($opts, $dir, $stop): int {
        $st = ['ok' => 0, 'failed' => [], 'granted' => 0];
        $end = microtime(true) + 60;
        if ($w === 3) {
            $rl = new RedisLock\RateLimiter('{mig}rate', LIMIT, 60000, ['servers' => $opts['servers'],
                'read_timeout' => 3000, 'connect_timeout' => 2000, 'policy' => 'fixed_window']);
        } else {
            $lock = new RedisLock($w === 2 ? '{mig}fair' : 'mig', $opts + ['fair' => $w === 2]);
        }
        while (!file_exists($stop) && microtime(true) < $end) {
            try {
                if ($w === 3) {
                    $st['granted'] += $rl->consume(1) ? 1 : 0;
                    $st['ok']++;
                    usleep(5000);
                    continue;
                }
                if (!$lock->acquire(5000)) {
                    $st['failed']['acquire timed out'] = 1;
                    continue;
                }
                $file = "$dir/counter" . ($w === 2 ? '-fair' : '');
                $v = (int) @file_get_contents($file);
                usleep(1000);
                file_put_contents($file, (string) ($v + 1));
                $st['ok']++;
                if (!$lock->release()) {
                    $st['failed']['release returned false'] = 1;
                }
            } catch (RedisLockException $e) {
                $st['failed'][preg_replace('/\d+/', 'N', $e->getMessage())] = 1;
                usleep(10000);
            }
        }
        file_put_contents("$dir/stats$w", json_encode($st));
        return 0;
    });
    exit(array_sum($codes) === 0 ? 0 : 1);
}

usleep(300000);
foreach ([[$from, $to], [$to, $from]] as [$x, $y]) {
    migrate($c, $masters, $slot, $x, $y);
    usleep(300000);
}
touch($stop);
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));

$sum = 0;
for ($w = 0; $w < 4; $w++) {
    $st = json_decode((string) @file_get_contents("$dir/stats$w"), true);
    echo "worker $w: ", $st['ok'] > 0 ? 'worked' : 'did nothing', ', failures: ', json_encode(array_keys($st['failed'])), "\n";
    if ($w < 2) {
        $sum += $st['ok'];
    }
    if ($w === 3) {
        /* Every consume() was answered; LIMIT were granted, not one more. */
        var_dump($st['granted'] === min(LIMIT, $st['ok']));
    }
}
$counter = (int) @file_get_contents("$dir/counter");
echo $counter === $sum ? "no lost update\n" : "LOST UPDATES: counter $counter, increments $sum\n";
var_dump($c->masterOf($slot) === $from);
exec('rm -rf ' . escapeshellarg($dir));
?>
--EXPECT--
int(0)
worker 0: worked, failures: []
worker 1: worked, failures: []
worker 2: worked, failures: []
worker 3: worked, failures: []
bool(true)
no lost update
bool(true)
