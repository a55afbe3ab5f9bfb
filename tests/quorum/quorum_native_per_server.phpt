--TEST--
Quorum over servers of different kinds (Debian's Redis 7.0 beside the suite's server, Valkey 9 or Redis 8 in their passes): each connection uses what its own server has, SET IFEQ for the extend where it can and the script elsewhere; the release stays the script on every server of a quorum
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$p = 'rltest:quorum_native_per_server:';
$servers = [new RLServer([], null, '/usr/bin/redis-server'), new RLServer(), new RLServer()];
$natives = array_map(fn(RLServer $s) => rl_server_natives($s->client()), $servers);
$o = rl_quorum_opts($servers, $p);
/* Connections open and scripts loaded first. */
$warm = new RedisLock('warm', $o);
var_dump($warm->acquire(), $warm->extend(), $warm->release());

$monitors = array_map(fn(RLServer $s) => new RLQuorumMonitor($s), $servers);
$l = new RedisLock('job', $o);
var_dump($l->acquire(), $l->extend(8000), $l->release());
foreach ($servers as $i => $s) {
    $s->client()->cmd('ECHO', $p . 'end');
    $seen = [];
    foreach ($monitors[$i]->lines($p . 'end') as $line) {
        if (str_contains($line, '"' . $p . 'job"') && preg_match('/^"([^"]+)"/', $line, $w)) {
            $seen[] = strtoupper($w[1]) . (str_contains(strtoupper($line), '"IFEQ"') ? '-IFEQ' : '');
        }
    }
    $extend = $natives[$i]['setifeq'] ? 'SET-IFEQ' : 'EVALSHA GET PEXPIRE';
    $want = "SET $extend EVALSHA GET DEL";
    $got = implode(' ', $seen);
    echo "server $i: ", $got === $want ? 'as expected' : "got [$got], expected [$want]", "\n";
}
/* The first is Debian's Redis 7.0: no native command. */
var_dump($natives[0]);
?>
--CLEAN--
<?php
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
server 0: as expected
server 1: as expected
server 2: as expected
array(3) {
  ["delifeq"]=>
  bool(false)
  ["delex"]=>
  bool(false)
  ["setifeq"]=>
  bool(false)
}
