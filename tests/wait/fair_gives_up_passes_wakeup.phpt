--TEST--
Fair mode: a waiter that gives up just as the lock is handed to it passes the lock on to the next waiter
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:fair_gives_up_passes_wakeup:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000, 'fair' => true];
$q = $p . 'job:redislock-queue';
$a = rl_admin();

/* G reaches the server through a proxy that holds back its leaving the
 * queue (the only script G calls with 23 arguments: release_fair.lua) until
 * told. */
[$proxy, $proxyPort] = rl_cont_proxy(RL_PORT, function (string $bytes) use ($p): void {
    static $c;
    $c ??= new RLClient();
    if (str_starts_with($bytes, "*23\r\n\$7\r\nEVALSHA")) {
        $c->cmd('RPUSH', $p . 'leave-held', '1');
        $c->cmd('BLPOP', $p . 'leave-go', '4');
    }
});

$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());
$g = rl_cont_spawn(function () use ($p, $opts, $proxyPort): int {
    $lock = new RedisLock('job', ['servers' => "redis://127.0.0.1:$proxyPort"] + $opts);
    return $lock->acquire(300) ? 2 : 0;
});
var_dump(rl_cont_until(fn() => $a->cmd('LLEN', $q) === 1, 10000));
$w = rl_cont_spawn(function () use ($p, $opts): int {
    $lock = new RedisLock('job', $opts);
    if (!$lock->acquire(10000)) {
        return 2;
    }
    (new RLClient())->cmd('RPUSH', $p . 'w', (string) hrtime(true));
    return $lock->release() ? 0 : 3;
});
var_dump(rl_cont_until(fn() => $a->cmd('LLEN', $q) === 2, 10000));

/* G's wait is over and its last attempt failed; before it leaves, the
 * holder releases, which hands the lock to G, the head of the queue. */
var_dump($a->cmd('BLPOP', $p . 'leave-held', '4') !== null);
var_dump($holder->release());
$t0 = hrtime(true);
$a->cmd('RPUSH', $p . 'leave-go', '1');
echo 'G exit code: ', rl_cont_reap($g), "\n";
echo 'W exit code: ', rl_cont_reap($w), "\n";
/* Handed the lock by G's leaving, W does not sleep until it renews its
 * place (up to 1 s), nor until G's short lease runs out (2 s). */
$ms = ((int) $a->cmd('LINDEX', $p . 'w', '0') - $t0) / 1e6;
echo $ms < 500 ? "W got the lock as G left\n" : "W got the lock $ms ms after G left\n";
echo 'queue left: ', $a->cmd('EXISTS', $q, $q . '-exp'), "\n";
rl_cont_proxy_stop($proxy);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fair_gives_up_passes_wakeup:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
G exit code: 0
W exit code: 0
W got the lock as G left
queue left: 0
