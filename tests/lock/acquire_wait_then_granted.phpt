--TEST--
acquire() with a wait gets the lock once another process releases it within the wait
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:acquire_wait_then_granted:';
$opts = ['servers' => RL_DSN, 'prefix' => $p];

/* Child 0 holds the lock for a while; child 1 waits for it. They report
 * the order of events through a Redis list; the parent prints it. */
$codes = rl_fork(2, function (int $i) use ($p, $opts): int {
    $r = new RLClient();
    $lock = new RedisLock('job', $opts);
    if ($i === 0) {
        if (!$lock->acquire()) {
            return 2;
        }
        $r->cmd('RPUSH', $p . 'held', $lock->token());
        usleep(300000);
        $r->cmd('RPUSH', $p . 'events', 'holder releases');
        return $lock->release() ? 0 : 3;
    }
    $held = $r->cmd('BLPOP', $p . 'held', '4');
    if (!is_array($held)) {
        return 4;
    }
    if ($lock->acquire() !== false) {
        return 5;
    }
    if (!$lock->acquire(5000)) {
        return 6;
    }
    $r->cmd('RPUSH', $p . 'events', 'waiter acquired');
    if ($lock->token() === $held[1] || $r->cmd('GET', $p . 'job') !== $lock->token()) {
        return 7;
    }
    return $lock->release() ? 0 : 8;
});
var_dump($codes);
var_dump(rl_admin()->cmd('LRANGE', $p . 'events', '0', '-1'));
var_dump(rl_admin()->cmd('EXISTS', $p . 'job'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:acquire_wait_then_granted:');
?>
--EXPECT--
array(2) {
  [0]=>
  int(0)
  [1]=>
  int(0)
}
array(2) {
  [0]=>
  string(15) "holder releases"
  [1]=>
  string(15) "waiter acquired"
}
int(0)
