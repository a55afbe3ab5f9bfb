--TEST--
Keepalive over a unix socket, with the DSN's database: the thread's connection reaches the same server and database
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require_once __DIR__ . '/../config.inc';
if (RL_SOCKET === '') die('skip no unix socket');
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:keepalive_unix_socket:';
$l = new RedisLock('job', ['servers' => 'unix://' . RL_SOCKET . '?db=3', 'prefix' => $p, 'ttl' => 400, 'keepalive' => true]);
var_dump($l->acquire());
usleep(1200000);
$c = rl_admin();
$c->cmd('SELECT', '3');
var_dump($c->cmd('GET', $p . 'job') === $l->token());
$c->cmd('SELECT', '0');
var_dump($l->isAcquired(), $l->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_unix_socket:', [3]);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
