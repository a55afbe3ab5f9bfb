--TEST--
Fencing over a quorum: the number is the highest of the granting servers' counters, and still increases when the granting majority changes
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
require_once __DIR__ . '/../contention.inc';
$p = 'rltest:fence_quorum_increases:';
$servers = rl_quorum_servers(3);
$opts = rl_quorum_opts($servers, $p, ['fencing' => true]);
$counters = fn(string $key) => array_map(fn(RLServer $s) => (int) $s->client()->cmd('GET', $key . ':redislock-fence'), $servers);

echo "-- the highest counter of the servers that granted it\n";
$key = $p . 'job';
$servers[0]->client()->cmd('SET', $key . ':redislock-fence', '5');
$servers[1]->client()->cmd('SET', $key . ':redislock-fence', '9');
$servers[2]->client()->cmd('SET', $key . ':redislock-fence', '2');
$lock = new RedisLock('job', $opts);
var_dump($lock->acquire(), $lock->fence(), max($counters($key)), $lock->release());

echo "-- majorities that differ\n";
/* The number handed out is written back to every server before the grant
 * counts, so every counter follows it, the busy server's too. */
$key = $p . 'other';
$lock = new RedisLock('other', $opts);
/* Each server in turn is taken by someone else (a leftover of a competing
 * attempt, say), so the lock is granted by the other two. */
$fences = [];
foreach ([2, 0, 1] as $busy) {
    $c = $servers[$busy]->client();
    $c->cmd('SET', $key, 'someone-else', 'PX', '60000');
    for ($n = 0; $n < 3; $n++) {
        if (!$lock->acquire()) {
            echo "not acquired with server $busy taken\n";
            break;
        }
        $fences[] = $lock->fence();
        $lock->release();
    }
    $c->cmd('DEL', $key);
    echo "server $busy taken: counters ", json_encode($counters($key)), "\n";
}
$ok = count($fences) === 9;
for ($i = 1; $i < count($fences); $i++) {
    $ok = $ok && $fences[$i] > $fences[$i - 1];
}
echo $ok ? "fences strictly increasing\n" : 'fences: ' . json_encode($fences) . "\n";
?>
--EXPECTF--
-- the highest counter of the servers that granted it
bool(true)
int(10)
int(10)
bool(true)
-- majorities that differ
server 2 taken: counters [3,3,3]
server 0 taken: counters [6,6,6]
server 1 taken: counters [9,9,9]
fences strictly increasing
