--TEST--
Fair mode: a waiter whose wait runs out leaves the queue at once and does not hold up those behind it
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:fair_gives_up_leaves_queue:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000, 'fair' => true];
$q = $p . 'job:redislock-queue';
$a = rl_admin();

$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());

/* G, at the head of the queue, gives up after 300 ms and looks at the
 * queue straight away. */
$g = rl_cont_spawn(function () use ($p, $opts, $q): int {
    $c = new RLClient();
    $lock = new RedisLock('job', $opts);
    $t0 = hrtime(true);
    $ok = $lock->acquire(300);
    $ms = rl_cont_ms($t0);
    $c->cmd('RPUSH', $p . 'g', json_encode([$ok, $ms >= 300, $c->cmd('LLEN', $q), $c->cmd('ZCARD', $q . '-exp')]));
    return 0;
});
var_dump(rl_cont_until(fn() => $a->cmd('LLEN', $q) === 1, 10000));
$head = $a->cmd('LINDEX', $q, '0');

/* W arrives after G and waits long. */
$w = rl_cont_spawn(function () use ($p, $opts): int {
    $lock = new RedisLock('job', $opts);
    if (!$lock->acquire(10000)) {
        return 2;
    }
    (new RLClient())->cmd('RPUSH', $p . 'w', (string) hrtime(true));
    return $lock->release() ? 0 : 3;
});
var_dump(rl_cont_until(fn() => $a->cmd('LLEN', $q) === 2, 10000));

echo 'G exit code: ', rl_cont_reap($g), "\n";
[$ok, $waited, $len, $card] = json_decode($a->cmd('LINDEX', $p . 'g', '0'));
echo 'G acquired: ', json_encode($ok), ', waited its 300 ms: ', json_encode($waited), "\n";
echo "right after G gave up: $len in the queue, $card place(s)\n";
echo 'G was at the head and is gone: ', json_encode($head !== null && !in_array($head, $a->cmd('LRANGE', $q, '0', '-1'), true)), "\n";

/* G's place would have lasted up to 2 s longer; W gets the lock now. */
$t0 = hrtime(true);
var_dump($holder->release());
echo 'W exit code: ', rl_cont_reap($w), "\n";
$ms = ((int) $a->cmd('LINDEX', $p . 'w', '0') - $t0) / 1e6;
echo $ms < 1000 ? "W got the lock right after the release\n" : "W got the lock $ms ms after the release\n";
echo 'queue left: ', $a->cmd('EXISTS', $q, $q . '-exp'), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fair_gives_up_leaves_queue:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
G exit code: 0
G acquired: false, waited its 300 ms: true
right after G gave up: 1 in the queue, 1 place(s)
G was at the head and is gone: true
bool(true)
W exit code: 0
W got the lock right after the release
queue left: 0
