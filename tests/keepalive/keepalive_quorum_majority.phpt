--TEST--
Keepalive on a quorum: a renewal is what extend() does; with one server of three down the majority still renews (the down one is tried again each tick), and when the hold is gone from a majority it is lost
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$servers = rl_quorum_servers(3);
$p = 'rltest:keepalive_quorum_majority:';
$l = new RedisLock('job', rl_quorum_opts($servers, $p, ['ttl' => 600, 'keepalive' => true, 'quorum_timeout' => 200]));
var_dump($l->acquire());
$token = $l->token();
usleep(1500000);
var_dump(rl_quorum_values($servers, $p . 'job') === [$token, $token, $token]);
rl_quorum_stop($servers[2]);
usleep(1500000);
var_dump(rl_quorum_values([$servers[0], $servers[1]], $p . 'job') === [$token, $token]);
var_dump($l->remaining() > 0);
foreach ([0, 1] as $i) {
    $servers[$i]->client()->cmd('DEL', $p . 'job');
}
usleep(800000);
var_dump($l->remaining(), RedisLock::stats()['keepalive_lost']);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(1)
