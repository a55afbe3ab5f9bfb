<?php
/*
 * bench/shared.php: shared (read) holds.
 *
 * 1. Uncontended cycles/s on one server, interleaved: RedisLock::acquireRead()
 *    + release() against RedisLock::acquire() + release() (target: the read
 *    cycle costs at most 1.1x the exclusive one, i.e. its rate >= 0.91x).
 * 2. Contended: 8 forked workers, 90% reads (hold 0.2 ms) and 10% writes (hold
 *    0.2 ms), each taking the name with a wait: RedisLock (acquireRead /
 *    acquire, woken waits) against Symfony Lock's RedisStore shared locks over
 *    phpredis (Lock::acquireRead(true) / acquire(true), which poll). Cycles/s
 *    of all workers together per round (target: RedisLock >= 2x).
 *
 * Run by bench/run.sh (bench/run.sh shared), which starts the server and loads
 * both extensions; Symfony Lock is Debian's php-symfony-lock.
 */
require __DIR__ . '/bench.inc';

[$port] = bench_ports(1);
$rounds = bench_rounds();
$ms = bench_round_ms();
$opts = ['servers' => "redis://127.0.0.1:$port", 'prefix' => 'bench:shared:', 'ttl' => 10000];

$x = new RedisLock('x', $opts);
$rd = new RedisLock('r', $opts);
$variants = [
    'RedisLock acquire + release' => fn() => $x->acquire() && $x->release(),
    'RedisLock acquireRead + release' => fn() => $rd->acquireRead() && $rd->release(),
];
printf("single server (127.0.0.1:%d), uncontended cycles/s, %d rounds of %d ms each, interleaved in %d ms turns\n\n",
    $port, $rounds, $ms, bench_slice_ms());
$results = bench_run($variants, $rounds, $ms);
bench_table($results);
$med = array_map('bench_median', $results);
echo "\nratios of medians:\n";
bench_ratio('read cycle rate / exclusive cycle rate', $med['RedisLock acquireRead + release'] / $med['RedisLock acquire + release'], 0.91);

/* {{{ contended: forked workers */
require_once 'Symfony/Component/Lock/autoload.php';

const WORKERS = 8;

/* Runs WORKERS forked workers for $ms, each doing cycles with $cycle($i)
 * (made in the child); returns the cycles/s of all together. */
function contended(callable $make, int $ms): float
{
    $dir = sys_get_temp_dir() . '/bench-shared-' . getmypid();
    @mkdir($dir);
    $pids = [];
    $start = microtime(true) + 0.2;
    for ($w = 0; $w < WORKERS; $w++) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            $cycle = $make($w);
            mt_srand($w + 1);
            while (microtime(true) < $start) {
                usleep(1000);
            }
            $n = 0;
            $end = $start + $ms / 1000;
            while (microtime(true) < $end) {
                if (!$cycle(mt_rand(0, 9) > 0)) {
                    exit(1);
                }
                $n++;
            }
            file_put_contents("$dir/$w", (string) $n);
            exit(0);
        }
        $pids[] = $pid;
    }
    $total = 0;
    foreach ($pids as $w => $pid) {
        pcntl_waitpid($pid, $st);
        if (pcntl_wexitstatus($st) !== 0) {
            throw new RuntimeException("worker $w failed");
        }
        $total += (int) file_get_contents("$dir/$w");
        unlink("$dir/$w");
    }
    rmdir($dir);
    return $total / ($ms / 1000);
}

$contended = [
    'RedisLock (woken waits)' => function (int $w) use ($opts) {
        $l = new RedisLock('c', $opts);
        return function (bool $read) use ($l) {
            if (!($read ? $l->acquireRead(10000) : $l->acquire(10000))) {
                return false;
            }
            usleep(200);
            return $l->release();
        };
    },
    'Symfony RedisStore over phpredis' => function (int $w) use ($port) {
        $r = new Redis();
        $r->connect('127.0.0.1', $port);
        $factory = new Symfony\Component\Lock\LockFactory(new Symfony\Component\Lock\Store\RedisStore($r));
        return function (bool $read) use ($factory) {
            $l = $factory->createLock('bench:shared:sf', 10.0, false);
            if (!($read ? $l->acquireRead(true) : $l->acquire(true))) {
                return false;
            }
            usleep(200);
            $l->release();
            return true;
        };
    },
];
$cms = max(1000, $ms);
printf("\n%d forked workers, 90%% reads, holds of 0.2 ms, waits: cycles/s of all workers, %d rounds of %d ms, alternating\n\n",
    WORKERS, $rounds, $cms);
$cres = array_fill_keys(array_keys($contended), []);
for ($r = 0; $r < $rounds; $r++) {
    $names = array_keys($contended);
    if ($r % 2) {
        $names = array_reverse($names);
    }
    foreach ($names as $name) {
        $cres[$name][] = contended($contended[$name], $cms);
    }
}
bench_table($cres);
$cmed = array_map('bench_median', $cres);
echo "\nratios of medians:\n";
bench_ratio('RedisLock / Symfony RedisStore', $cmed['RedisLock (woken waits)'] / $cmed['Symfony RedisStore over phpredis'], 2.0);
/* }}} */
