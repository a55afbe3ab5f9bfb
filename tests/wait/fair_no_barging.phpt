--TEST--
Fair mode: acquire(0) never jumps the queue, not even at the moment the lock is free
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:fair_no_barging:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000, 'fair' => true];
$q = $p . 'job:redislock-queue';
$a = rl_admin();

$holder = new RedisLock('job', $opts);
$other = new RedisLock('job', $opts);
for ($r = 0; $r < 5; $r++) {
    $held = $holder->acquire();
    $waiter = rl_cont_spawn(function () use ($p, $opts, $r): int {
        $lock = new RedisLock('job', $opts);
        if (!$lock->acquire(10000)) {
            return 2;
        }
        (new RLClient())->cmd('RPUSH', $p . "got$r", 'queued waiter');
        usleep(50000);
        return $lock->release() ? 0 : 3;
    });
    $queued = rl_cont_until(fn() => $a->cmd('LLEN', $q) === 1, 10000);
    $whileHeld = $other->acquire();
    $released = $holder->release();
    /* The lock is free now, and the waiter is still queued. */
    $atRelease = $other->acquire();
    if ($atRelease) {
        $a->cmd('RPUSH', $p . "got$r", 'acquire(0)');
    }
    $code = rl_cont_reap($waiter);
    echo "round $r: ", json_encode([$held, $queued, $whileHeld, $released, $atRelease, $code]), ' ',
        implode(', then ', $a->cmd('LRANGE', $p . "got$r", '0', '-1')), "\n";
    if ($atRelease) {
        $other->release();
    }
}
/* Nobody queued: acquire(0) takes the free lock, and left no place behind. */
var_dump($other->acquire(), $a->cmd('EXISTS', $q, $q . '-exp'), $other->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fair_no_barging:');
?>
--EXPECT--
round 0: [true,true,false,true,false,0] queued waiter
round 1: [true,true,false,true,false,0] queued waiter
round 2: [true,true,false,true,false,0] queued waiter
round 3: [true,true,false,true,false,0] queued waiter
round 4: [true,true,false,true,false,0] queued waiter
bool(true)
int(0)
bool(true)
