--TEST--
Fair mode: a release hands the lock to the waiter at the head, which holds it with its own full lease and the next fence, even when the server lost the scripts
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:fair_handover:';
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000, 'fair' => true, 'fencing' => true];
$q = $p . 'job:redislock-queue';
$a = rl_admin();

foreach (['cached scripts', 'after SCRIPT FLUSH'] as $round => $case) {
    echo "-- $case\n";
    $holder = new RedisLock('job', $opts);
    var_dump($holder->acquire());
    $fence = $holder->fence();
    /* The waiter asks for a ttl of its own (8 s): the hand-over's short
     * lease (2 s at most) must become that once the waiter has it. */
    $w = rl_cont_spawn(function () use ($p, $opts): int {
        $lock = new RedisLock('job', ['ttl' => 8000] + $opts);
        if (!$lock->acquire(10000)) {
            return 2;
        }
        $c = new RLClient();
        $c->cmd('RPUSH', $p . 'seen', json_encode([
            'remaining' => $lock->remaining(),
            'pttl' => $c->cmd('PTTL', $p . 'job'),
            'fence' => $lock->fence(),
            'mine' => $c->cmd('GET', $p . 'job') === $lock->token(),
        ]));
        usleep(300000);
        return $lock->release() ? 0 : 3;
    });
    var_dump(rl_cont_until(fn() => $a->cmd('LLEN', $q) === 1, 10000));
    if ($round === 1) {
        $a->cmd('SCRIPT', 'FLUSH');
    }
    var_dump($holder->release());
    $seen = json_decode($a->cmd('BLPOP', $p . 'seen', '10')[1], true);
    echo 'waiter holds it: ', json_encode($seen['mine']), "\n";
    echo 'lease on the server is the waiter\'s ttl: ',
        json_encode($seen['pttl'] > 7000 && $seen['pttl'] <= 8000), " ({$seen['pttl']} ms)\n";
    echo 'remaining() by the waiter\'s clock: ',
        json_encode($seen['remaining'] > 6500 && $seen['remaining'] <= 8000), " ({$seen['remaining']} ms)\n";
    echo 'fence is the next one: ', json_encode($seen['fence'] === $fence + 1), "\n";
    echo 'waiter exit code: ', rl_cont_reap($w), "\n";
    echo 'left behind: ', json_encode(array_values(array_filter(
        $a->cmd('KEYS', $p . 'job*'), fn($k) => $k !== $p . 'job:redislock-fence'))), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fair_handover:');
?>
--EXPECTF--
-- cached scripts
bool(true)
bool(true)
bool(true)
waiter holds it: true
lease on the server is the waiter's ttl: true (%d ms)
remaining() by the waiter's clock: true (%d ms)
fence is the next one: true
waiter exit code: 0
left behind: []
-- after SCRIPT FLUSH
bool(true)
bool(true)
bool(true)
waiter holds it: true
lease on the server is the waiter's ttl: true (%d ms)
remaining() by the waiter's clock: true (%d ms)
fence is the next one: true
waiter exit code: 0
left behind: []
