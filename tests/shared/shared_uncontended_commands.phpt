--TEST--
Shared holds: an uncontended read cycle runs on the server what an exclusive cycle does (a plain SET NX PX to take a free lock, GET DEL PTTL in one script to release it), with the sorted set of leases made only for a second reader; an exclusive release runs GET DEL PTTL (or natively DELIFEQ PTTL), looking for waiting readers only when someone waits
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_uncontended_commands:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
/* The scripts loaded first, so that each call below is one EVALSHA. */
$warm = new RedisLock('warm', $o);
var_dump($warm->acquire(), $warm->release(), $warm->acquireRead(), $warm->release());

/* The commands the server runs on our keys (MONITOR), up to a marker. */
$m = stream_socket_client('tcp://' . RL_HOST . ':' . RL_PORT, $errno, $errstr, 5.0);
fwrite($m, "*1\r\n\$7\r\nMONITOR\r\n");
stream_set_timeout($m, 5);
var_dump(fgets($m) === "+OK\r\n");
function seen($m, RLClient $a, string $p): string
{
    $a->cmd('ECHO', $p . 'end');
    $out = [];
    while (($l = fgets($m)) !== false && !str_contains($l, $p . 'end')) {
        if (str_contains($l, '"' . $p) && preg_match('/^\+[\d.]+ \[[^\]]*\] "([^"]+)"/', $l, $w)) {
            $out[] = strtoupper($w[1]);
        }
    }
    return implode(' ', $out);
}

$x = new RedisLock('x', $o);
var_dump($x->acquire(), $x->release());
/* Where the server has a native compare-and-delete, the exclusive release
 * is that and the waiters marker's PTTL (tests/lock/native_uncontended_cycle.phpt). */
$n = rl_server_natives();
$release = $n['delifeq'] ? 'DELIFEQ PTTL' : ($n['delex'] ? 'DELEX PTTL' : 'EVALSHA GET DEL PTTL');
echo str_replace($release, 'EVALSHA GET DEL PTTL', seen($m, $a, $p)), "\n";
$r = new RedisLock('r', $o);
var_dump($r->acquireRead(), $r->release());
echo seen($m, $a, $p), "\n";
/* A second reader: the first one's share goes into the sorted set. */
$r2 = new RedisLock('r', $o);
var_dump($r->acquireRead(), $r2->acquireRead(), $a->cmd('ZCARD', $p . 'r:redislock-readers'));
var_dump($r->extend(), $r->isAcquired(), $r->release(), $r2->release(), $a->cmd('EXISTS', $p . 'r', $p . 'r:redislock-readers'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_uncontended_commands:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
SET EVALSHA GET DEL PTTL
bool(true)
bool(true)
SET EVALSHA GET DEL PTTL
bool(true)
bool(true)
int(2)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
