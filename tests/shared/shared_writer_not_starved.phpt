--TEST--
Shared holds: while a writer waits, no new share is granted: with readers arriving all the time, the writer gets in once the readers that held the name before it leave, and the readers held back get in after it
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_writer_not_starved:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$first = new RedisLock('n', $o);
var_dump($first->acquireRead());
$log = $p . 'log';
$pids = [];
/* A writer starts waiting. */
$pids[] = $wpid = pcntl_fork();
if ($wpid === 0) {
    $w = new RedisLock('n', $o);
    $ok = $w->acquire(8000);
    (new RLClient())->cmd('RPUSH', 'rltest:shared_writer_not_starved:log', 'W');
    usleep(100000);
    exit($ok && $w->release() ? 0 : 1);
}
for ($i = 0; $i < 500 && !str_starts_with((string) $a->cmd('GET', $p . 'n'), '*1'); $i++) {
    usleep(5000);
}
/* Readers keep coming while the first one still holds. */
for ($r = 0; $r < 4; $r++) {
    $pids[] = $pid = pcntl_fork();
    if ($pid === 0) {
        $l = new RedisLock('n', $o);
        $ok = $l->acquireRead(8000);
        (new RLClient())->cmd('RPUSH', 'rltest:shared_writer_not_starved:log', 'R');
        exit($ok && $l->release() ? 0 : 1);
    }
    usleep(50000);
}
var_dump($a->cmd('LLEN', $log));
var_dump($first->release());
$codes = [];
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $st);
    $codes[] = pcntl_wexitstatus($st);
}
echo implode(' ', $a->cmd('LRANGE', $log, '0', '-1')), ' ', json_encode($codes), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_writer_not_starved:');
?>
--EXPECT--
bool(true)
int(0)
bool(true)
W R R R R [0,0,0,0,0]
