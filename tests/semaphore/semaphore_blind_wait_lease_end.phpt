--TEST--
Semaphore: a waiting acquire that begins blocked (the process knows the semaphore full and marked) still tries again at the earliest lease end its last refusal reported: a hold that is never released lets it in when its lease ends, not a recheck later
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_blind_lease_end:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$a = rl_admin();
$h = new RedisLock\Semaphore('pool', 2, $o);
$d = new RedisLock\Semaphore('pool', 2, $o);
var_dump($h->acquire(), $d->acquire());
/* Waited for elsewhere for a long time (as a waiter that will wait 20 s
 * marks it). */
$a->cmd('SET', $p . 'pool:redislock-semaphore:redislock-wait', '1', 'PX', '20000');
/* The commands of this process's connections (MONITOR), watched from the
 * start of the measured acquire: set up first, so that only two commands
 * go between d's extend() and that acquire, however slow the run. */
$ours = [];
foreach (explode("\n", (string) $a->cmd('CLIENT', 'LIST')) as $line) {
    if (str_contains($line, ' name=redislock:' . getmypid() . ' ') && preg_match('/ addr=(\S+) /', $line, $m)) {
        $ours[] = $m[1];
    }
}
$m = stream_socket_client('tcp://' . RL_HOST . ':' . RL_PORT, $errno, $errstr, 5.0);
fwrite($m, "*1\r\n\$7\r\nMONITOR\r\n");
stream_set_timeout($m, 15);
var_dump(fgets($m) === "+OK\r\n");
/* d's lease now ends in 500 ms, and d is never released (as a holder that
 * died). */
var_dump($d->extend(500));
/* Refused: the process learns the semaphore full, marked for 20 s, and the
 * earliest lease end (d's). */
$w = new RedisLock\Semaphore('pool', 2, $o);
var_dump($w->acquire(20));
$a->cmd('ECHO', $p . 'start');
$t0 = hrtime(true);
var_dump($w->acquire(5000));
$ms = rl_cont_ms($t0);
$a->cmd('ECHO', $p . 'end');
$seen = [];
while (($l = fgets($m)) !== false && !str_contains($l, $p . 'start')) {
}
while (($l = fgets($m)) !== false && !str_contains($l, $p . 'end')) {
    if (preg_match('/^\+[\d.]+ \[\d+ (\S+)\] "([^"]+)"/', $l, $g) && in_array($g[1], $ours, true)) {
        $seen[] = strtoupper($g[2]);
    }
}
/* First the BLPOP, with the attempt the server ran when it timed out
 * behind it (the block, timed from when the refusal was sent, may end a
 * little before the lease: then one more attempt after a short sleep). */
echo 'this process began with: ', implode(' ', array_slice($seen, 0, 2)), "\n";
/* d's lease end plus the server's timer tick, well before the second a
 * block lasts at most otherwise. */
echo $ms < 850 ? "in at d's lease end\n" : "after $ms ms\n";
var_dump($w->release(), $h->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_blind_lease_end:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
this process began with: BLPOP EVALSHA
in at d's lease end
bool(true)
bool(true)
