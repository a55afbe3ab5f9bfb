--TEST--
Waiting: a lock key deleted without a release (DEL, FLUSHALL, eviction) is noticed by a waiter within about a second
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_key_deleted:';
$a = rl_admin();

foreach ([false, true] as $fair) {
    echo $fair ? "fair\n" : "plain\n";
    /* Held by someone else for 30 s; deleted behind everyone's back. */
    $a->cmd('SET', $p . 'job', 'someone-else', 'PX', '30000');
    $deleter = rl_cont_spawn(function () use ($p): int {
        usleep(400000);
        (new RLClient())->cmd('DEL', $p . 'job');
        return 0;
    });
    $waiter = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'fair' => $fair]);
    $t0 = hrtime(true);
    var_dump($waiter->acquire(10000));
    $ms = rl_cont_ms($t0);
    echo 'deleter exit code ', rl_cont_reap($deleter), "\n";
    echo $ms >= 390 ? "not before the key went\n" : "after $ms ms\n";
    echo $ms < 400 + 2500 ? "soon after the key went, not when the old lease ends\n" : "after $ms ms\n";
    var_dump($waiter->release());
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_key_deleted:');
?>
--EXPECT--
plain
bool(true)
deleter exit code 0
not before the key went
soon after the key went, not when the old lease ends
bool(true)
fair
bool(true)
deleter exit code 0
not before the key went
soon after the key went, not when the old lease ends
bool(true)
