--TEST--
Waiting: a user the server refuses BLPOP still waits, by backoff, and an attempt sent with the refused BLPOP that took the lock counts
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_blpop_refused:';
$admin = rl_admin();
var_dump($admin->cmd('ACL', 'SETUSER', 'rltest_noblock', 'reset', 'on', '>pw-noblock', '~' . $p . '*', '+@all',
    '-blpop'));
$opts = ['prefix' => $p, 'ttl' => 20000];

echo "-- the holder releases while the waiter cannot block\n";
$holder = rl_cont_spawn(function () use ($p, $opts): int {
    $lock = new RedisLock('job', ['servers' => RL_DSN] + $opts);
    if (!$lock->acquire()) {
        return 2;
    }
    (new RLClient())->cmd('RPUSH', $p . 'held', '1');
    usleep(300000);
    return $lock->release() ? 0 : 3;
});
var_dump($admin->cmd('BLPOP', $p . 'held', '5') !== null);
$lock = new RedisLock('job', ['servers' => 'redis://rltest_noblock:pw-noblock@127.0.0.1:' . RL_PORT] + $opts);
$t0 = hrtime(true);
var_dump($lock->acquire(5000));
$ms = rl_cont_ms($t0);
echo $ms < 4000 ? "soon after the release\n" : "after $ms ms\n";
var_dump($admin->cmd('GET', $p . 'job') === $lock->token());
echo 'holder exit code ', rl_cont_reap($holder), "\n";
var_dump($lock->release());

echo "-- the lease ends just as the refused BLPOP goes out\n";
$holder = new RedisLock('job', ['servers' => RL_DSN] + $opts);
var_dump($holder->acquire());
/* The waiter's BLPOP goes out in one write with its next SET NX PX; the
 * proxy ends the holder's lease right before passing that write on, so
 * the server refuses the BLPOP and grants the SET. */
[$proxy, $proxyPort] = rl_cont_proxy(RL_PORT, function (string $bytes) use ($p): void {
    static $c;
    $c ??= new RLClient();
    if (str_contains($bytes, "\r\nBLPOP\r\n")) {
        $c->cmd('DEL', $p . 'job');
    }
});
$lock = new RedisLock('job', ['servers' => "redis://rltest_noblock:pw-noblock@127.0.0.1:$proxyPort"] + $opts);
$t0 = hrtime(true);
var_dump($lock->acquire(3000));
$ms = rl_cont_ms($t0);
echo $ms < 2000 ? "at once\n" : "after $ms ms\n";
var_dump($admin->cmd('GET', $p . 'job') === $lock->token());
var_dump($lock->isAcquired());
var_dump($lock->release());
var_dump($admin->cmd('EXISTS', $p . 'job'));
rl_cont_proxy_stop($proxy);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_admin()->cmd('ACL', 'DELUSER', 'rltest_noblock');
rl_core_clean('rltest:wait_blpop_refused:');
?>
--EXPECT--
string(2) "OK"
-- the holder releases while the waiter cannot block
bool(true)
bool(true)
soon after the release
bool(true)
holder exit code 0
bool(true)
-- the lease ends just as the refused BLPOP goes out
bool(true)
bool(true)
at once
bool(true)
bool(true)
bool(true)
int(0)
