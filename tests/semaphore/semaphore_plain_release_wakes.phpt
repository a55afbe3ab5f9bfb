--TEST--
Semaphore: the release of a hold of weight 1 (plain commands, no script) wakes a waiter, one per release
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_plain_wake:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 60000];
$a = rl_admin();
$holders = [new RedisLock\Semaphore('pool', 2, $o), new RedisLock\Semaphore('pool', 2, $o)];
echo json_encode([$holders[0]->acquire(), $holders[1]->acquire()]), "\n";
$waiters = [];
for ($i = 0; $i < 2; $i++) {
    $waiters[] = rl_cont_spawn(function () use ($p, $o, $i): int {
        $s = new RedisLock\Semaphore('pool', 2, $o);
        $before = RedisLock::stats();
        $got = $s->acquire(20000);
        $after = RedisLock::stats();
        (new RLClient())->cmd('RPUSH', $p . 'result', json_encode([$got, $after['waits'] - $before['waits']]));
        usleep(300000);
        return $got && $s->release() ? 0 : 2;
    });
}
$marked = rl_cont_until(fn() => $a->cmd('EXISTS', $p . 'pool:redislock-semaphore:redislock-wait') === 1, 10000);
usleep(300000); /* both blocked */
$calls = rl_cont_calls($a);
$freed = [$holders[0]->release()];
$first = rl_cont_until(fn() => $a->cmd('LLEN', $p . 'result') === 1, 10000);
$freed[] = $holders[1]->release();
$codes = array_map(fn($w) => rl_cont_reap($w), $waiters);
$after = rl_cont_calls($a);
echo json_encode([$marked, $freed, $first, $codes]), "\n";
/* The script pushes its wake-up without LTRIM; the plain path trims the list. */
echo 'plain wake-ups: ', ($after['ltrim'] ?? 0) - ($calls['ltrim'] ?? 0) >= 2 ? 'yes' : 'no', "\n";
echo 'waiters: ', json_encode($a->cmd('LRANGE', $p . 'result', '0', '-1')), " (acquired, waits that ended)\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_plain_wake:');
?>
--EXPECT--
[true,true]
[true,[true,true],true,[0,0]]
plain wake-ups: yes
waiters: ["[true,1]","[true,1]"] (acquired, waits that ended)
