--TEST--
RedisLock::stats() lists the per-process counters and each moves with the event it counts (commands: one per operation, and a new connection's handshake: CLIENT SETNAME, HELLO)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:stats_counters:';
/* The scripts on every server (the native commands of Valkey 9 or Redis
 * 8.4 make a release two commands and reload no script: native_*.phpt). */
$opts = ['servers' => RL_DSN, 'prefix' => $p, 'native_commands' => false];

$s = RedisLock::stats();
var_dump(array_keys($s));
var_dump(count(array_filter($s, fn ($v) => is_int($v) && $v >= 0)) === count($s));

/* Prints the counters that changed since the last call. */
function delta(?string $what): void
{
    static $last;
    $now = RedisLock::stats();
    if ($what === null) {
        $last = $now;
        return;
    }
    $moved = [];
    foreach ($now as $k => $v) {
        if ($v !== $last[$k]) {
            $moved[] = "$k+" . ($v - $last[$k]);
        }
    }
    echo str_pad($what . ':', 28), implode(' ', $moved) ?: '-', "\n";
    $last = $now;
}
/* The extension's scripts are in the server's cache before counting starts. */
$warm = new RedisLock('warm', $opts);
$warm->acquire();
$warm->extend();
$warm->release();
unset($warm);
delta(null);
delta('start');

$a = new RedisLock('job', $opts + ['persistent' => false]);
var_dump($a->acquire());
delta('acquire (first use)');
$b = new RedisLock('job', $opts + ['persistent' => false]);
var_dump($b->acquire());
delta('acquire on a held lock');
var_dump($a->extend());
delta('extend');
var_dump($a->release());
delta('release');
var_dump($a->release());
delta('release, not held');

$short = new RedisLock('short', $opts + ['ttl' => 100, 'persistent' => false]);
var_dump($short->acquire());
usleep(150000);
for ($i = 0; $i < 300 && rl_admin()->cmd('EXISTS', $p . 'short') !== 0; $i++) {
    usleep(10000);
}
delta('acquire, then expire');
var_dump($short->extend());
delta('extend after expiry');
var_dump($short->release());
delta('release after expiry');

var_dump($a->acquire());
rl_admin()->cmd('SCRIPT', 'FLUSH');
var_dump($a->release());
delta('release after SCRIPT FLUSH');

$c = new RedisLock('auto', $opts + ['persistent' => false]);
var_dump($c->acquire());
unset($c);
delta('acquire, destroyed');

$down = new RedisLock('job', ['servers' => 'redis://127.0.0.1:' . rl_free_port(), 'connect_timeout' => 200]);
try {
    $down->acquire();
} catch (RedisLockException $e) {
    echo get_class($e), "\n";
}
delta('acquire, server down');
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:stats_counters:');
?>
--EXPECT--
array(18) {
  [0]=>
  string(8) "acquired"
  [1]=>
  string(9) "contended"
  [2]=>
  string(8) "released"
  [3]=>
  string(13) "released_lost"
  [4]=>
  string(8) "extended"
  [5]=>
  string(13) "extend_failed"
  [6]=>
  string(13) "auto_released"
  [7]=>
  string(8) "connects"
  [8]=>
  string(10) "reconnects"
  [9]=>
  string(14) "script_reloads"
  [10]=>
  string(5) "waits"
  [11]=>
  string(6) "errors"
  [12]=>
  string(8) "commands"
  [13]=>
  string(12) "rate_limited"
  [14]=>
  string(16) "atomic_conflicts"
  [15]=>
  string(14) "atomic_retries"
  [16]=>
  string(18) "keepalive_renewals"
  [17]=>
  string(14) "keepalive_lost"
}
bool(true)
start:                      -
bool(true)
acquire (first use):        acquired+1 connects+1 commands+3
bool(false)
acquire on a held lock:     contended+1 commands+1
bool(true)
extend:                     extended+1 commands+1
bool(true)
release:                    released+1 commands+1
bool(false)
release, not held:          -
bool(true)
acquire, then expire:       acquired+1 commands+1
bool(false)
extend after expiry:        extend_failed+1 commands+1
bool(false)
release after expiry:       released_lost+1 commands+1
bool(true)
bool(true)
release after SCRIPT FLUSH: acquired+1 released+1 script_reloads+1 commands+3
bool(true)
acquire, destroyed:         acquired+1 released+1 auto_released+1 commands+2
RedisLock\ConnectionException
acquire, server down:       errors+1
