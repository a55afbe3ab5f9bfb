--TEST--
Keepalive: the hold of a process killed with SIGKILL is renewed no more, and the lock is free within its ttl
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_sigkill_frees_within_ttl:';
$c = new RLClient();
$pid = pcntl_fork();
if ($pid === 0) {
    $l = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 500, 'keepalive' => true]);
    $l->acquire();
    sleep(60);
    exit(0);
}
for ($i = 0; $i < 500 && $c->cmd('EXISTS', $p . 'job') !== 1; $i++) {
    usleep(10000);
}
$token = $c->cmd('GET', $p . 'job');
usleep(1500000); /* three ttls: only renewals keep it */
var_dump($c->cmd('GET', $p . 'job') === $token);
rl_kill($pid, 9);
pcntl_waitpid($pid, $status);
$killed = microtime(true);
for ($i = 0; $i < 300 && $c->cmd('EXISTS', $p . 'job') === 1; $i++) {
    usleep(10000);
}
var_dump($c->cmd('EXISTS', $p . 'job'));
/* Within the ttl (500 ms) and a generous slack for a loaded machine. */
var_dump(microtime(true) - $killed < 2.0);
$other = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 500]);
var_dump($other->acquire());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_sigkill_frees_within_ttl:');
?>
--EXPECT--
bool(true)
int(0)
bool(true)
bool(true)
