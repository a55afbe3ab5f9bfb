--TEST--
Waiting: a blocked wait that runs out is answered late by the server (its timer tick), which must not cost the connection, even with a short read_timeout
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:wait_short_read_timeout:';
$holder = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 30000]);
var_dump($holder->acquire());

$waiter = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'read_timeout' => 50, 'persistent' => false]);
$before = RedisLock::stats();
for ($i = 0; $i < 3; $i++) {
    var_dump($waiter->acquire(250));
}
$after = RedisLock::stats();
/* one request-scoped connection for all three waits, and every wait ended
 * with the server's answer rather than a dropped connection */
var_dump($after['connects'] - $before['connects'], $after['waits'] - $before['waits'] >= 3, $after['errors'] - $before['errors']);
var_dump($holder->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:wait_short_read_timeout:');
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(false)
int(1)
bool(true)
int(0)
bool(true)
