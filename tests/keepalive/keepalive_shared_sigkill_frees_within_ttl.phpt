--TEST--
Keepalive: the share of a process killed with SIGKILL is renewed no more, and a writer gets the lock within the share's ttl
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_shared_sigkill_frees_within_ttl:';
$slow = getenv('USE_ZEND_ALLOC') === '0';
$ttl = $slow ? 1500 : 500;
$c = new RLClient();
$pid = pcntl_fork();
if ($pid === 0) {
    $l = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl, 'keepalive' => true]);
    $l->acquireRead();
    sleep(60);
    exit(0);
}
for ($i = 0; $i < 500 && rl_share_lone_token($c, $p . 'job') === null; $i++) {
    usleep(10000);
}
$share = rl_share_lone_token($c, $p . 'job');
usleep(3 * $ttl * 1000); /* three ttls: only renewals keep it */
var_dump($share !== null && rl_share_lease($c, $p . 'job', $share) > 0);
$w = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => $ttl]);
var_dump($w->acquire());
rl_kill($pid, 9);
pcntl_waitpid($pid, $status);
$killed = microtime(true);
/* The writer waits, woken when the share's lease runs out: within the ttl
 * and a generous slack for a loaded (or valgrind's) machine. */
var_dump($w->acquire(10000), microtime(true) - $killed < ($slow ? 8.0 : 2.0), $w->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_shared_sigkill_frees_within_ttl:');
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
