--TEST--
Semaphore: an uncontended acquire + release runs on the server what a lock cycle does: a plain SET NX PX of the holder key, then one script running GET, DEL and PTTL of the waiters marker
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:sem_uncontended_commands:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
/* The release script loaded first, so that each call of it below is one EVALSHA. */
$warm = new RedisLock\Semaphore('warm', 2, $o);
var_dump($warm->acquire(), $warm->release());

/* The commands the server runs on our keys (MONITOR, scripts' too), up to a marker. */
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

$s = new RedisLock\Semaphore('pool', 3, $o + ['weight' => 2]);
var_dump($s->acquire(), $s->release());
echo seen($m, $a, $p), "\n";
/* Again, and with a new object of this process. */
var_dump($s->acquire(), $s->release());
$t = new RedisLock\Semaphore('pool', 3, $o);
var_dump($t->acquire(), $t->release());
echo seen($m, $a, $p), "\n";
var_dump($a->cmd('KEYS', $p . 'pool*'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_uncontended_commands:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
SET EVALSHA GET DEL PTTL
bool(true)
bool(true)
bool(true)
bool(true)
SET EVALSHA GET DEL PTTL SET EVALSHA GET DEL PTTL
array(0) {
}
