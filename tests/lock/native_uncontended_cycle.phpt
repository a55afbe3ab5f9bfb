--TEST--
An uncontended cycle sends no script where the server has the native commands: SET NX PX to take the lock, SET ... IFEQ to extend it, DELIFEQ (Valkey 9) or DELEX IFEQ (Redis 8.4) with the waiters marker's PTTL to release it; elsewhere the extend and release scripts, as before
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:native_uncontended_cycle:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$n = rl_server_natives();
/* The scripts loaded and the connection open first. */
$warm = new RedisLock('warm', $o);
var_dump($warm->acquire(), $warm->extend(), $warm->release());

/* The commands the server runs on our keys (MONITOR), up to a marker; a
 * command a script runs is marked "lua". */
$m = stream_socket_client('tcp://' . RL_HOST . ':' . RL_PORT, $errno, $errstr, 5.0);
fwrite($m, "*1\r\n\$7\r\nMONITOR\r\n");
stream_set_timeout($m, 5);
var_dump(fgets($m) === "+OK\r\n");
function seen($m, RLClient $a, string $p): string
{
    $a->cmd('ECHO', $p . 'end');
    $out = [];
    while (($l = fgets($m)) !== false && !str_contains($l, $p . 'end')) {
        if (str_contains($l, '"' . $p) && preg_match('/^\+[\d.]+ \[([^\]]*)\] "([^"]+)"(.*)$/', $l, $w)) {
            $out[] = (str_contains($w[1], 'lua') ? 'lua:' : '') . strtoupper($w[2])
                . (str_contains(strtoupper($w[3]), '"IFEQ"') ? '-IFEQ' : '');
        }
    }
    return implode(' ', $out);
}

$x = new RedisLock('x', $o);
var_dump($x->acquire(), $x->extend(8000), $x->release());
$got = seen($m, $a, $p);
$extend = $n['setifeq'] ? 'SET-IFEQ' : 'EVALSHA lua:GET lua:PEXPIRE';
$release = $n['delifeq'] ? 'DELIFEQ PTTL' : ($n['delex'] ? 'DELEX-IFEQ PTTL' : 'EVALSHA lua:GET lua:DEL lua:PTTL');
$want = "SET $extend $release";
echo $got === $want ? "as expected\n" : "got [$got], expected [$want]\n";
/* No script at all on a server with both. */
var_dump(($n['setifeq'] && ($n['delifeq'] || $n['delex'])) === !str_contains($got, 'EVALSHA'));
/* The same outcomes: a release or extend of a lock no longer ours says so. */
$y = new RedisLock('y', $o + ['ttl' => 100]);
var_dump($y->acquire());
$a->cmd('SET', $p . 'y', 'someone else');
var_dump($y->extend(), $a->cmd('GET', $p . 'y'));
$z = new RedisLock('z', $o);
var_dump($z->acquire());
$a->cmd('SET', $p . 'z', 'someone else');
var_dump($z->release(), $a->cmd('GET', $p . 'z'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:native_uncontended_cycle:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
as expected
bool(true)
bool(true)
bool(false)
string(12) "someone else"
bool(true)
bool(false)
string(12) "someone else"
