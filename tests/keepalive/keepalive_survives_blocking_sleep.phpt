--TEST--
Keepalive: a hold with a 500 ms ttl survives a 3 s blocking sleep() of its process: nobody else can take it meanwhile, and its lease on the server is never set above the ttl
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_survives_blocking_sleep:';
$pid = pcntl_fork();
if ($pid === 0) {
    /* The other process: tries to take the lock and reads its lease while the holder sleeps. */
    $c = new RLClient();
    $other = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 500]);
    for ($i = 0; $i < 500 && $c->cmd('EXISTS', $p . 'job') !== 1; $i++) {
        usleep(10000);
    }
    $seen = ['taken' => 0, 'missing' => 0, 'over_ttl' => 0, 'probes' => 0];
    for ($i = 0; $i < 50; $i++) {
        $seen['taken'] += $other->acquire() ? 1 : 0;
        $pttl = $c->cmd('PTTL', $p . 'job');
        $seen['missing'] += $pttl < 0 ? 1 : 0;
        $seen['over_ttl'] += $pttl > 500 ? 1 : 0;
        $seen['probes']++;
        usleep(50000);
    }
    $c->cmd('SET', $p . 'seen', json_encode($seen));
    exit(0);
}
$l = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 500, 'keepalive' => true]);
var_dump($l->acquire());
sleep(3);
pcntl_waitpid($pid, $status);
echo rl_admin()->cmd('GET', $p . 'seen'), "\n";
var_dump($l->isAcquired(), $l->remaining() > 0, $l->remaining() <= 500);
var_dump(RedisLock::stats()['keepalive_renewals'] >= 5, RedisLock::stats()['keepalive_lost']);
var_dump($l->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_survives_blocking_sleep:');
?>
--EXPECT--
bool(true)
{"taken":0,"missing":0,"over_ttl":0,"probes":50}
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
