--TEST--
Shared holds: acquireRead() on a quorum server list or a fair lock is a ValueError that says why, with nothing sent
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_quorum_and_fair_refused:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$q = new RedisLock('n', ['servers' => RL_DSN . ',redis://127.0.0.1:1,redis://127.0.0.1:2'] + $o);
$f = new RedisLock('n', ['fair' => true] + $o);
foreach ([$q, $f] as $l) {
    try {
        $l->acquireRead();
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump($a->cmd('EXISTS', $p . 'n'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_quorum_and_fair_refused:');
?>
--EXPECT--
ValueError: RedisLock::acquireRead(): shared holds need one server, Sentinel or Cluster ("servers" lists 3)
ValueError: RedisLock::acquireRead(): shared holds are not available in fair mode
int(0)
