--TEST--
A waiting acquire of a free lock costs what acquire(0) does: one plain SET NX PX, no script
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$srv = new RLServer();
$c = $srv->client();
$opts = ['servers' => $srv->dsn(), 'prefix' => 'rltest:acquire_wait_free_plain_set:'];
foreach ([0, 5000] as $wait) {
    $lock = new RedisLock('job', $opts);
    $lock->acquire(0);
    $lock->release();
    $c->cmd('CONFIG', 'RESETSTAT');
    $before = RedisLock::stats()['commands'];
    var_dump($lock->acquire($wait));
    $calls = rl_cont_calls($c);
    unset($calls['config|resetstat'], $calls['info']);
    echo "acquire($wait): ", RedisLock::stats()['commands'] - $before, ' command: ', json_encode($calls), "\n";
    var_dump($lock->release());
}
$srv->stop();
?>
--EXPECT--
bool(true)
acquire(0): 1 command: {"set":1}
bool(true)
bool(true)
acquire(5000): 1 command: {"set":1}
bool(true)
