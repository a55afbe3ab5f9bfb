--TEST--
Proxy chaos: 4 forked workers take one lock through a proxy injecting random faults (extra, wrong-type, error, split, delayed and swallowed replies, connections closed mid-reply); never two holders at once, work gets done, and nothing is left on the server once the workers are gone
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_chaos_mutual_exclusion:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'ttl' => 30000, 'read_timeout' => 300];
$run_ms = 4000;

$workers = [];
for ($w = 0; $w < 4; $w++) {
    $workers[] = rl_cont_spawn(function () use ($p, $opts, $run_ms): int {
        $c = new RLClient();
        $end = hrtime(true) + $run_ms * 1e6;
        for ($i = 0; $i < 100000 && hrtime(true) < $end; $i++) {
            $l = new RedisLock('job', $opts);
            try {
                if (!$l->acquire(300)) {
                    continue;
                }
            } catch (RedisLockException $e) {
                continue;
            }
            /* Inside: nobody else may be. */
            if ($c->cmd('INCR', $p . 'inside') !== 1) {
                $c->cmd('INCR', $p . 'violations');
            }
            usleep(1000);
            $c->cmd('DECR', $p . 'inside');
            $c->cmd('INCR', $p . 'sections');
            try {
                $l->release();
            } catch (RedisLockException $e) {
                /* unknown: the end of the object or the request tries again */
            }
        }
        return 0;
    });
}

/* Faults, one after another, while the workers run. */
$faults = ['extra +OK', 'extra :1', 'extra $-1', 'wrongtype', 'wrongtype :1', 'error ERR injected',
    'error NOSCRIPT No matching script', 'close_mid', 'split 3 1', 'delay 400', 'silent', 'huge_array'];
mt_srand(42);
$end = hrtime(true) + $run_ms * 1e6;
for ($i = 0; $i < 1000 && hrtime(true) < $end; $i++) {
    $proxy->fault($faults[mt_rand(0, count($faults) - 1)]);
    usleep(mt_rand(20000, 80000));
    $proxy->pass();
    usleep(mt_rand(20000, 80000));
}
$proxy->pass();
$codes = array_map(fn($pid) => rl_cont_reap($pid, 120000), $workers);
echo 'worker exit codes ', implode(' ', $codes), "\n";

$a = rl_admin();
echo 'violations: ', (int) $a->cmd('GET', $p . 'violations'), "\n";
$sections = (int) $a->cmd('GET', $p . 'sections');
echo $sections >= 5 ? "work got done\n" : "only $sections sections\n";
echo 'faults injected: ', $proxy->stats()['faulted'] > 10 ? "many\n" : "few\n";
/* Every worker has ended its request: whatever token of theirs may have
 * been left behind by an unanswered command is gone (long before its 30 s
 * lease would end). */
var_dump($a->cmd('EXISTS', $p . 'job'));
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_chaos_mutual_exclusion:');
?>
--EXPECT--
worker exit codes 0 0 0 0
violations: 0
work got done
faults injected: many
int(0)
