--TEST--
Keepalive on a quorum with AUTH: a frozen server's connection, closed after its timeout, is opened again at each tick without waiting for its AUTH reply (read with the renewal's), so a frozen minority (2 of 5, listed first) still costs one quorum_timeout per tick and the hold survives a blocking sleep
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$p = 'rltest:keepalive_quorum_frozen_minority_auth:';
/* The pids frozen, for --CLEAN-- should this process end before it thaws them. */
$pidfile = RL_RUNDIR . '/keepalive_quorum_frozen_minority_auth.pids';
$servers = rl_quorum_servers(5);
foreach ($servers as $s) {
    $s->client()->cmd('CONFIG', 'SET', 'requirepass', 'frozen-minority-pw');
}
$dsn = implode(',', array_map(fn(RLServer $s) => $s->dsn(':frozen-minority-pw'), $servers));
/* ttl 600 ms: ticks every 200 ms. quorum_timeout 250 ms: one frozen server's
 * timeout fits before the lease runs out on the healthy ones, two do not. */
$opts = ['servers' => $dsn, 'prefix' => $p, 'ttl' => 600, 'quorum_timeout' => 250];

$pid = pcntl_fork();
if ($pid === 0) {
    /* The other process: waits for the freeze, then tries to take the name
     * while the holder sleeps. */
    $c = new RLClient();
    for ($i = 0; $i < 500 && $c->cmd('GET', $p . 'frozen') !== '1'; $i++) {
        usleep(10000);
    }
    $other = new RedisLock('job', $opts);
    $seen = ['taken' => 0, 'probes' => 0];
    $end = hrtime(true) + 2400 * 1000000;
    for ($i = 0; $i < 100 && hrtime(true) < $end; $i++) {
        $seen['taken'] += $other->acquire(0) ? 1 : 0;
        $seen['probes']++;
        usleep(100000);
    }
    $seen['probes'] = $seen['probes'] >= 3;
    $c->cmd('SET', $p . 'seen', json_encode($seen));
    exit(0);
}

/* Connections and scripts warmed up without a tight limit (valgrind). */
$setup = new RedisLock('setup', ['servers' => $dsn, 'prefix' => $p, 'quorum_timeout' => 2000]);
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
rl_core_clean('rltest:keepalive_quorum_frozen_minority_auth:');
/* Frozen servers left behind by a test that ended early: running again. */
$pidfile = RL_RUNDIR . '/keepalive_quorum_frozen_minority_auth.pids';
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
{"taken":0,"probes":true}
bool(true)
int(0)
bool(true)
bool(true)
