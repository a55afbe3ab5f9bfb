--TEST--
Quorum: a waiter woken by a release on a minority of the servers (the others' wake-ups went to someone else) gives that minority back and tries again at once, instead of sitting on it until its block ends
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
require __DIR__ . '/../quorum.inc';
$p = 'rltest:quorum_wait_split_wakeups:';
$servers = rl_quorum_servers(3);
$opts = rl_quorum_opts($servers, $p, ['ttl' => 20000]);
$a = rl_admin();
$blocked = fn(int $i): int => (int) preg_replace('/.*blocked_clients:(\d+).*/s', '$1',
                                                 $servers[$i]->client()->cmd('INFO', 'clients'));

$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());

/* Someone else is blocked on the lock's wake-up list of servers 1 and 2
 * before our waiter: the release's wake-ups there go to it, and only
 * server 0 wakes our waiter (whose SET there then takes the key). */
$thieves = [];
foreach ([1, 2] as $i) {
    $thieves[] = rl_cont_spawn(function () use ($servers, $i, $p): int {
        $got = $servers[$i]->client()->cmd('BLPOP', $p . 'job:redislock-wake', '10');
        return is_array($got) ? 0 : 5;
    });
    rl_cont_until(fn() => $blocked($i) === 1, 10000);
}
$waiter = rl_cont_spawn(function () use ($p, $opts): int {
    $lock = new RedisLock('job', $opts);
    if (!$lock->acquire(15000)) {
        return 2;
    }
    (new RLClient())->cmd('SET', $p . 'got', 'yes');
    return $lock->release() ? 0 : 4;
});
echo 'blocked on every server: ',
    json_encode(rl_cont_until(fn() => $blocked(0) === 1 && $blocked(1) === 2 && $blocked(2) === 2, 10000)), "\n";

$t0 = hrtime(true);
var_dump($holder->release());
$got = rl_cont_until(fn() => $a->cmd('GET', $p . 'got') === 'yes', 10000);
$ms = rl_quorum_ms($t0);
echo 'the waiter got the lock: ', json_encode($got), "\n";
/* Its block would have lasted a second (a waiter comes back at least that
 * often); it tried again within milliseconds. */
echo $ms < 500 ? "soon after the release\n" : "after $ms ms\n";
echo 'exit codes: ', implode(' ', array_map('rl_cont_reap', [...$thieves, $waiter])), "\n";
echo 'the key is gone everywhere: ', json_encode(rl_quorum_values($servers, $p . 'job') === [null, null, null]), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('DEL', 'rltest:quorum_wait_split_wakeups:got');
?>
--EXPECT--
bool(true)
blocked on every server: true
bool(true)
the waiter got the lock: true
soon after the release
exit codes: 0 0 0
the key is gone everywhere: true
