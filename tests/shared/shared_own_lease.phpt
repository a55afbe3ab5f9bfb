--TEST--
Shared holds: each reader has its own lease: extend() renews only its own share; a SIGKILLed reader frees its share at its own ttl while a reader with a longer ttl continues, and the writer gets in when that one releases
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_own_lease:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$long = new RedisLock('n', ['ttl' => 4000] + $o);
var_dump($long->acquireRead());
$pid = pcntl_fork();
if ($pid === 0) {
    $short = new RedisLock('n', ['ttl' => 400] + $o);
    $short->acquireRead();
    $a = new RLClient();
    $a->cmd('SET', 'rltest:shared_own_lease:child', $short->token());
    sleep(30);
    exit(0);
}
for ($i = 0; $i < 500 && $a->cmd('GET', $p . 'child') === null; $i++) {
    usleep(5000);
}
$child = $a->cmd('GET', $p . 'child');
var_dump($a->cmd('ZCARD', $p . 'n:redislock-readers'));
posix_kill($pid, SIGKILL);
pcntl_waitpid($pid, $st);
/* The dead reader's share: gone at its ttl (400 ms); the long one lives on. */
$gone = false;
for ($i = 0; $i < 200 && !$gone; $i++) {
    usleep(10000);
    $restored = RedisLock::restore('n', $child, $o);
    $gone = !$restored->isAcquired();
}
var_dump($gone, $long->isAcquired(), $long->remaining() > 2000);
$w = new RedisLock('n', $o);
var_dump($w->acquire(), $long->extend(3000), $long->remaining() > 2000);
/* A writer in a child waits; the long reader releases 200 ms later. */
$pid = pcntl_fork();
if ($pid === 0) {
    $w2 = new RedisLock('n', $o);
    exit($w2->acquire(5000) && $w2->release() ? 0 : 1);
}
usleep(200000);
var_dump($long->release());
pcntl_waitpid($pid, $st);
var_dump(pcntl_wexitstatus($st));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_own_lease:');
?>
--EXPECT--
bool(true)
int(2)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
int(0)
