--TEST--
Keepalive: a Semaphore hold with a 500 ms ttl survives a 3 s blocking sleep() of its process: available() stays reduced, nobody else gets its permit, and the lease on the server is never set above the ttl
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
use RedisLock\Semaphore;

$p = 'rltest:keepalive_semaphore_survives_blocking_sleep:';
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 1500 : 500;
$holds = $p . 'pool:redislock-semaphore';
$pid = pcntl_fork();
if ($pid === 0) {
    $c = new RLClient();
    $other = new Semaphore('pool', 2, ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl, 'weight' => 2]);
    for ($i = 0; $i < 500 && $c->cmd('EXISTS', $holds) !== 1; $i++) {
        usleep(10000);
    }
    $seen = ['available' => [], 'taken' => 0, 'missing' => 0, 'over_ttl' => 0];
    $probes = 0;
    for ($end = microtime(true) + 2.5; microtime(true) < $end; $probes++) {
        $seen['available'][$other->available()] = true;
        $seen['taken'] += $other->acquire() ? 1 : 0;
        $pttl = $c->cmd('PTTL', $holds);
        $seen['missing'] += $pttl < 0 ? 1 : 0;
        $seen['over_ttl'] += $pttl > $ttl ? 1 : 0;
        usleep(50000);
    }
    $seen['available'] = array_keys($seen['available']);
    $seen['probed'] = $probes > 0;
    $c->cmd('SET', $p . 'seen', json_encode($seen));
    exit(0);
}
$s = new Semaphore('pool', 2, ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl, 'keepalive' => true]);
var_dump($s->acquire());
sleep(3);
pcntl_waitpid($pid, $status);
echo rl_admin()->cmd('GET', $p . 'seen'), "\n";
var_dump($s->isAcquired(), $s->remaining() > 0, $s->remaining() <= $ttl, strlen($s->token()), $s->available());
var_dump(RedisLock::stats()['keepalive_renewals'] >= 3, RedisLock::stats()['keepalive_lost']);
var_dump($s->release(), $s->available());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_semaphore_survives_blocking_sleep:');
?>
--EXPECT--
bool(true)
{"available":[1],"taken":0,"missing":0,"over_ttl":0,"probed":true}
bool(true)
bool(true)
bool(true)
int(32)
int(1)
bool(true)
int(0)
bool(true)
int(2)
