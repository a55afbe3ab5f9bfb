--TEST--
Keepalive on a quorum: with a frozen minority (2 of 5, listed first) a tick costs one quorum_timeout, not one per frozen server, so the hold survives a blocking sleep although two timeouts outlast the lease on the healthy servers
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$p = 'rltest:keepalive_quorum_frozen_minority:';
/* The pids frozen, for --CLEAN-- should this process end before it thaws them. */
$pidfile = RL_RUNDIR . '/keepalive_quorum_frozen_minority.pids';
$servers = rl_quorum_servers(5);
/* ttl 600 ms: ticks every 200 ms. quorum_timeout 250 ms: one frozen server's
 * timeout fits before the lease runs out on the healthy ones, two do not. */
$opts = rl_quorum_opts($servers, $p, ['ttl' => 600, 'quorum_timeout' => 250]);
$healthy = [2, 3, 4];

$pid = pcntl_fork();
if ($pid === 0) {
    /* The other process: waits for the freeze, then tries to take the name
     * and looks at the lease on the healthy servers while the holder sleeps. */
    $c = new RLClient();
    for ($i = 0; $i < 500 && $c->cmd('GET', $p . 'frozen') !== '1'; $i++) {
        usleep(10000);
    }
    $other = new RedisLock('job', $opts);
    $seen = ['taken' => 0, 'missing' => 0, 'probes' => 0];
    $end = hrtime(true) + 2400 * 1000000;
    for ($i = 0; $i < 100 && hrtime(true) < $end; $i++) {
        $seen['taken'] += $other->acquire(0) ? 1 : 0;
        foreach ($healthy as $h) {
            $seen['missing'] += $servers[$h]->client()->cmd('PTTL', $p . 'job') < 0 ? 1 : 0;
        }
        $seen['probes']++;
        usleep(100000);
    }
    $seen['probes'] = $seen['probes'] >= 3;
    $c->cmd('SET', $p . 'seen', json_encode($seen));
    exit(0);
}

/* Connections and scripts warmed up without a tight limit (valgrind). */
$setup = new RedisLock('setup', rl_quorum_opts($servers, $p));
var_dump($setup->acquire(), $setup->release());
$l = new RedisLock('job', $opts + ['keepalive' => true]);
var_dump($l->acquire());
file_put_contents($pidfile, $servers[0]->pid . ' ' . $servers[1]->pid);
try {
    $servers[0]->freeze();
    $servers[1]->freeze();
    rl_admin()->cmd('SET', $p . 'frozen', '1');
    sleep(3);
    for ($i = 0; $i < 1000 && pcntl_waitpid($pid, $status, WNOHANG) === 0; $i++) {
        usleep(10000);
    }
    echo rl_admin()->cmd('GET', $p . 'seen'), "\n";
    var_dump($l->isAcquired());
    var_dump(RedisLock::stats()['keepalive_lost']);
    var_dump(RedisLock::stats()['keepalive_renewals'] >= 5);
} finally {
    $servers[0]->thaw();
    $servers[1]->thaw();
    @unlink($pidfile);
}
var_dump($l->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_quorum_frozen_minority:');
/* Frozen servers left behind by a test that ended early: running again. */
$pidfile = RL_RUNDIR . '/keepalive_quorum_frozen_minority.pids';
foreach (explode(' ', (string) @file_get_contents($pidfile)) as $pid) {
    if ((int) $pid > 0 && str_contains((string) @file_get_contents("/proc/$pid/cmdline"), 'redis')) {
        exec('kill -CONT ' . (int) $pid . ' 2>/dev/null');
    }
}
@unlink($pidfile);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
{"taken":0,"missing":0,"probes":true}
bool(true)
int(0)
bool(true)
bool(true)
