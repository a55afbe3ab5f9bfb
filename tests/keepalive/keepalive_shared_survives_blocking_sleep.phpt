--TEST--
Keepalive: a share with a 500 ms ttl survives a 3 s blocking sleep() of its process, renewed with the share's own renewal: no writer gets in meanwhile, and neither the lock key's lease nor the share's is ever set above the ttl
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_shared_survives_blocking_sleep:';
/* Under valgrind every process is slow: more room in the ttl, the sleep still longer. */
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 1500 : 500;
$pid = pcntl_fork();
if ($pid === 0) {
    /* The other process: a writer tries to get in while the reader sleeps. */
    $c = new RLClient();
    $w = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl]);
    for ($i = 0; $i < 500 && rl_share_lone_token($c, $p . 'job') === null; $i++) {
        usleep(10000);
    }
    $share = rl_share_lone_token($c, $p . 'job');
    $seen = ['taken' => 0, 'missing' => 0, 'over_ttl' => 0];
    $probes = 0;
    for ($end = microtime(true) + 2.5; microtime(true) < $end; $probes++) {
        $seen['taken'] += $w->acquire() ? 1 : 0;
        $pttl = $c->cmd('PTTL', $p . 'job');
        $lease = $share === null ? -1 : rl_share_lease($c, $p . 'job', $share);
        $seen['missing'] += $pttl < 0 || $lease < 0 ? 1 : 0;
        $seen['over_ttl'] += $pttl > $ttl || $lease > $ttl ? 1 : 0;
        usleep(50000);
    }
    $seen['probed'] = $probes > 0;
    $c->cmd('SET', $p . 'seen', json_encode($seen));
    exit(0);
}
$l = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl, 'keepalive' => true]);
var_dump($l->acquireRead());
sleep(3);
pcntl_waitpid($pid, $status);
echo rl_admin()->cmd('GET', $p . 'seen'), "\n";
var_dump($l->isAcquired(), $l->isShared(), $l->remaining() > 0, $l->remaining() <= $ttl);
var_dump(RedisLock::stats()['keepalive_renewals'] >= 3, RedisLock::stats()['keepalive_lost']);
var_dump($l->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_shared_survives_blocking_sleep:');
?>
--EXPECT--
bool(true)
{"taken":0,"missing":0,"over_ttl":0,"probed":true}
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
