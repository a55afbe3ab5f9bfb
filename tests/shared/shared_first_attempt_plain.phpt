--TEST--
Shared holds: a share of a free lock is taken with a plain SET NX PX; a share of a lock this process last found taken (by any object) starts with the script (one round trip), until the script says it found the lock free; a held lock refuses the plain attempt and the script decides
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_first_attempt_plain:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
/* The script loaded first (a second reader runs it), so that each call of
 * it below is one EVALSHA. */
$warm = new RedisLock('warm', $o);
$warm2 = new RedisLock('warm', $o);
var_dump($warm->acquireRead(), $warm2->acquireRead(), $warm->release(), $warm2->release());

$m = stream_socket_client('tcp://' . RL_HOST . ':' . RL_PORT, $errno, $errstr, 5.0);
fwrite($m, "*1\r\n\$7\r\nMONITOR\r\n");
stream_set_timeout($m, 5);
var_dump(fgets($m) === "+OK\r\n");
/* The commands clients sent on our keys since the last call (first words;
 * not those the scripts ran). */
function seen($m, RLClient $a, string $p): string
{
    $a->cmd('ECHO', $p . 'end');
    $out = [];
    while (($l = fgets($m)) !== false && !str_contains($l, $p . 'end')) {
        if (str_contains($l, '"' . $p) && preg_match('/^\+[\d.]+ \[(?!\d+ lua)[^\]]*\] "([^"]+)"/', $l, $w)) {
            $out[] = strtoupper($w[1]);
        }
    }
    return implode(' ', $out);
}

$r1 = new RedisLock('r', $o);
$r2 = new RedisLock('r', $o);
echo "free lock, no wait: ";
var_dump($r1->acquireRead(), $r1->isShared());
echo seen($m, $a, $p), "\n";
echo "beside a reader: ";
var_dump($r2->acquireRead());
echo seen($m, $a, $p), "\n";
echo "again beside it, the same object: ";
var_dump($r2->release(), $r2->acquireRead());
echo seen($m, $a, $p), "\n";
var_dump($r1->release(), $r2->release(), $a->cmd('EXISTS', $p . 'r'));
seen($m, $a, $p);
echo "free again, a new object of this process: ";
$r4 = new RedisLock('r', $o);
var_dump($r4->acquireRead(), $r4->release());
echo seen($m, $a, $p), "\n";
echo "and next time: ";
var_dump($r2->acquireRead(1000), $r2->release());
echo seen($m, $a, $p), "\n";

/* A writer holds it: the plain attempt fails, the script refuses. */
$w = new RedisLock('r', $o);
$r3 = new RedisLock('r', $o);
var_dump($w->acquire());
seen($m, $a, $p);
echo "writer holds: ";
var_dump($r3->acquireRead(), $r3->isAcquired(), $a->cmd('GET', $p . 'r') === $w->token());
echo str_replace(' GET', '', seen($m, $a, $p)), "\n";
var_dump($w->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_first_attempt_plain:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
free lock, no wait: bool(true)
bool(true)
SET
beside a reader: bool(true)
SET EVALSHA
again beside it, the same object: bool(true)
bool(true)
EVALSHA EVALSHA
bool(true)
bool(true)
int(0)
free again, a new object of this process: bool(true)
bool(true)
EVALSHA EVALSHA
and next time: bool(true)
bool(true)
SET EVALSHA
bool(true)
writer holds: bool(false)
bool(false)
bool(true)
SET EVALSHA
bool(true)
