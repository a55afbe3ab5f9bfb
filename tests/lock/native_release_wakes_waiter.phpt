--TEST--
A release of a lock another process waits for wakes it, with the native compare-and-delete (its wake-up pushed by plain commands behind it) where the server has it, by the release script elsewhere
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:native_release_wakes_waiter:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 20000];
$a = rl_admin();
$n = rl_server_natives();
$native = $n['delifeq'] || $n['delex'];

$m = stream_socket_client('tcp://' . RL_HOST . ':' . RL_PORT, $errno, $errstr, 5.0);
fwrite($m, "*1\r\n\$7\r\nMONITOR\r\n");
stream_set_timeout($m, 5);
var_dump(fgets($m) === "+OK\r\n");

$holder = new RedisLock('job', $o);
var_dump($holder->acquire());
$pid = pcntl_fork();
if ($pid === 0) {
    /* The waiter: blocks until the release wakes it (the lease is 20 s,
     * the wait 15 s: only a wake-up lets it in before the test ends). */
    $l = new RedisLock('job', $o);
    $ok = $l->acquire(15000);
    (new RLClient())->cmd('RPUSH', $p . 'result', $ok ? 'acquired' : 'not acquired');
    $ok && $l->release();
    exit(0);
}
/* Released once the waiter has marked the lock as waited for. */
for ($i = 0; $i < 500 && !$a->cmd('EXISTS', $p . 'job:redislock-wait'); $i++) {
    usleep(10000);
}
usleep(50000);
var_dump($holder->release());
var_dump($a->cmd('BLPOP', $p . 'result', '10'));
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));

/* Who deleted the key and who pushed the wake-up: a script ("lua") or
 * plain commands. */
$a->cmd('ECHO', $p . 'end');
$del = $push = '';
while (($l = fgets($m)) !== false && !str_contains($l, $p . 'end')) {
    if (!preg_match('/^\+[\d.]+ \[([^\]]*)\] "([^"]+)" "([^"]*)"/', $l, $w)) {
        continue;
    }
    $by = str_contains($w[1], 'lua') ? 'script' : 'native';
    $cmd = strtoupper($w[2]);
    if ($del === '' && in_array($cmd, ['DEL', 'DELIFEQ', 'DELEX'], true) && $w[3] === $p . 'job') {
        $del = "$by $cmd";
    }
    if ($push === '' && $cmd === 'RPUSH' && $w[3] === $p . 'job:redislock-wake') {
        $push = $by;
    }
}
$want = $native ? ($n['delifeq'] ? 'native DELIFEQ' : 'native DELEX') : 'script DEL';
echo $del === $want ? "deleted as expected\n" : "deleted by [$del], expected [$want]\n";
echo $push === ($native ? 'native' : 'script') ? "woken as expected\n" : "wake-up pushed by [$push]\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:native_release_wakes_waiter:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  string(41) "rltest:native_release_wakes_waiter:result"
  [1]=>
  string(8) "acquired"
}
int(0)
deleted as expected
woken as expected
