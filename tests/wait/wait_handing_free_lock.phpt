--TEST--
Waiting: the acquire script takes a free lock that is marked as waited for, with no wake-up left, for one being handed to a woken waiter (it refuses it, and wakes a caller whose block no lease times), but for 2 ms at most; a release sets no key beside its wake-up, and marking the lock for longer makes its wake-up last as long
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_file(__DIR__ . '/../../lua/acquire.lua')) {
    die('skip needs the source tree (lua/)');
}
?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$p = 'rltest:wait_handing_free_lock:';
$key = $p . 'job';
$k = fn(string $kind) => "$key:redislock-$kind";
$a = rl_admin();
$lua = fn(string $name) => file_get_contents(__DIR__ . "/../../lua/$name.lua");
/* A waiter's attempt: acquire.lua with the lock's wake-up list and the
 * caller's own, marking the lock for $wait ms; $soon > 0: the caller's block
 * is not timed by a lease (wake it when the lock comes free within that). */
$call = fn(string $token, string $wait = '5000', string $soon = '0') => [
    'EVAL', $lua('acquire'), '5', $key, $k('fence'), $k('wait'), $k('wake'), $k('wake') . ':own',
    $token, '10000', '0', $wait, $soon];
$attempt = fn(...$args) => array_slice($a->cmd(...$call(...$args)), 0, 2);
$reset = function () use ($a, $key, $k): void {
    $a->cmd('DEL', $key, $k('wait'), $k('wake'), $k('wake') . ':own', $k('wake') . '-seen');
};

echo "-- a free lock, marked, no wake-up left\n";
$reset();
$a->cmd('SET', $k('wait'), '1', 'PX', '5000');
/* Two attempts in one write: the server runs them within microseconds. */
[$first, $again, $seen, $held] = $a->pipeline($call('t1'), $call('t2'), ['PTTL', $k('wake') . '-seen'],
                                               ['GET', $key]);
echo 'first attempt: ', json_encode(array_slice($first, 0, 2)), ', at once again: ',
    json_encode(array_slice($again, 0, 2)), ', key: ', json_encode($held), "\n";
echo 'noted for a second at most: ', json_encode($seen > 0 && $seen <= 1000), "\n";
/* Noted 5 ms ago (995 ms left of the second), in the same write again. */
[, $later] = $a->pipeline(['SET', $k('wake') . '-seen', '1', 'PX', '995'], $call('t3'));
echo 'later: ', json_encode(array_slice($later, 0, 2)), ', key: ', json_encode($a->cmd('GET', $key)), "\n";

echo "-- the same, for a caller whose block no lease times\n";
$reset();
$a->cmd('SET', $k('wait'), '1', 'PX', '5000');
echo 'attempt: ', json_encode($attempt('t4', '5000', '1000')), ', caller woken: ',
    json_encode($a->cmd('LLEN', $k('wake') . ':own') === 1), "\n";

echo "-- a wake-up left in the list\n";
$reset();
$a->cmd('SET', $k('wait'), '1', 'PX', '5000');
$a->cmd('RPUSH', $k('wake'), '1');
echo 'attempt: ', json_encode($attempt('t5')), ', the wake-up left for its BLPOP: ',
    json_encode($a->cmd('LLEN', $k('wake')) === 1), "\n";

echo "-- nobody marked\n";
$reset();
echo 'attempt: ', json_encode($attempt('t6', '0')), ', marked: ', json_encode($a->cmd('EXISTS', $k('wait'))), "\n";

echo "-- the release\n";
$reset();
$a->cmd('SET', $key, 'h', 'PX', '10000');
$a->cmd('SET', $k('wait'), '1', 'PX', '3000');
$keys = $a->cmd('DBSIZE');
var_dump($a->cmd('EVAL', $lua('release'), '3', $key, $k('wait'), $k('wake'), 'h'));
echo 'keys it added: ', $a->cmd('DBSIZE') - $keys, ' (the wake-up list, minus the lock)', "\n";
$ttl = $a->cmd('PTTL', $k('wake'));
echo 'the wake-up lasts as long as the marker: ', json_encode($ttl > 0 && $ttl <= 3000), "\n";
/* A waiter marks the lock for longer while the lock is held: the wake-up
 * then lasts as long as the new marker. */
$a->cmd('SET', $key, 'h2', 'PX', '10000');
[$got, $pttl] = $attempt('t7', '60000');
echo 'attempt: ', json_encode($got), ', the holder\'s lease: ', json_encode($pttl > 9000), "\n";
$ttl = $a->cmd('PTTL', $k('wake'));
echo 'the wake-up lasts as long: ', json_encode($ttl > 30000 && $ttl <= 60000), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_handing_free_lock:');
?>
--EXPECT--
-- a free lock, marked, no wake-up left
first attempt: [0,-2], at once again: [0,-2], key: null
noted for a second at most: true
later: [1,0], key: "t3"
-- the same, for a caller whose block no lease times
attempt: [0,-2], caller woken: true
-- a wake-up left in the list
attempt: [1,0], the wake-up left for its BLPOP: true
-- nobody marked
attempt: [1,0], marked: 0
-- the release
int(1)
keys it added: 0 (the wake-up list, minus the lock)
the wake-up lasts as long as the marker: true
attempt: 0, the holder's lease: true
the wake-up lasts as long: true
