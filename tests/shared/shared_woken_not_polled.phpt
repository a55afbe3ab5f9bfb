--TEST--
Shared holds: a reader waiting for a writer and a writer waiting for a reader are woken by the release, not by polling: the waiter sends a handful of commands during a 3 s wait
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_woken_not_polled:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
foreach (['reader waits for writer', 'writer waits for reader'] as $k => $what) {
    $holder = new RedisLock("n$k", $o + ['ttl' => 10000]);
    var_dump($k === 0 ? $holder->acquire() : $holder->acquireRead());
    $pid = pcntl_fork();
    if ($pid === 0) {
        $l = new RedisLock("n$k", $o);
        $before = RedisLock::stats()['commands'];
        $ok = $k === 0 ? $l->acquireRead(8000) : $l->acquire(8000);
        $sent = RedisLock::stats()['commands'] - $before;
        (new RLClient())->cmd('SET', "rltest:shared_woken_not_polled:sent$k", (string) $sent);
        exit($ok && $l->release() ? 0 : 1);
    }
    usleep(3000000);
    $t = microtime(true);
    var_dump($holder->release());
    pcntl_waitpid($pid, $st);
    $sent = (int) $a->cmd('GET', $p . "sent$k");
    echo "$what: ", pcntl_wexitstatus($st), ' ', $sent <= 12 ? 'few commands' : "$sent commands", "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_woken_not_polled:');
?>
--EXPECT--
bool(true)
bool(true)
reader waits for writer: 0 few commands
bool(true)
bool(true)
writer waits for reader: 0 few commands
