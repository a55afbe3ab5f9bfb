--TEST--
Waiting: a holder's lease that ends in the very millisecond of an attempt does not make the waiter sleep out its wait (plain and fair mode, the same object waiting again and again)
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:wait_lease_ending_now:';
$a = rl_admin();
foreach ([false, true] as $fair) {
    $waiter = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'fair' => $fair]);
    $waiter->isAcquired(); /* connected before the rounds */

    /* A holder that never releases takes the lock for 3 ms; the waiter's
     * attempt lands at a random point around the end of that lease,
     * sometimes in its last millisecond (PTTL 0). Nobody will release: the
     * waiter must come back when the lease has run out, not at the end of
     * its 1 s wait. In plain mode, after the first round that waited, the
     * object starts with the attempt that goes with the wait. */
    $slow = [];
    $waited = 0;
    for ($r = 0; $r < 40; $r++) {
        $a->cmd('SET', $p . 'job', 'holder-that-died', 'PX', '3');
        usleep(random_int(0, 4000));
        $t0 = hrtime(true);
        $ok = $waiter->acquire(1000);
        $ms = rl_cont_ms($t0);
        if (!$ok || $ms >= 600) {
            $slow[] = sprintf('%s after %.0f ms', json_encode($ok), $ms);
        }
        $waited += $ms >= 1;
        $waiter->release();
    }
    echo $fair ? 'fair: ' : 'plain: ';
    echo $slow ? count($slow) . " of 40 rounds slept out the wait: " . implode(', ', $slow) . "\n"
        : "every round got the lock soon after the lease ended\n";
    echo $waited > 0 ? "some rounds waited\n" : "no round waited\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_lease_ending_now:');
?>
--EXPECT--
plain: every round got the lock soon after the lease ended
some rounds waited
fair: every round got the lock soon after the lease ended
some rounds waited
