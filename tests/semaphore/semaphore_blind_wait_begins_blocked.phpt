--TEST--
Semaphore: once the process knows a semaphore full and marked as waited for, a waiting acquire (the same object's or a new one's) begins with the BLPOP and the attempt behind it, no refused script first, and is granted when a holder releases
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_blind_begins:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$a = rl_admin();
$blocked = fn() => (int) $a->info('clients', 'blocked_clients');
/* The release script loaded, so that the scripts below are EVALSHAs. */
$warm = new RedisLock\Semaphore('warm', 1, $o);
$warm->acquire();
$warm->release();

/* The child holds both permits, frees one while the parent's first acquire
 * waits, and the other once told to, when the parent blocks again. */
$child = rl_cont_spawn(function () use ($p, $o): int {
    $c = new RLClient();
    $h1 = new RedisLock\Semaphore('pool', 2, $o);
    $h2 = new RedisLock\Semaphore('pool', 2, $o);
    if (!$h1->acquire() || !$h2->acquire()) {
        return 2;
    }
    $c->cmd('RPUSH', $p . 'ready', '1');
    rl_cont_until(fn() => (int) $c->info('clients', 'blocked_clients') === 1, 10000);
    $h1->release();
    $c->cmd('BLPOP', $p . 'go', '10');
    rl_cont_until(fn() => (int) $c->info('clients', 'blocked_clients') === 1, 10000);
    usleep(200000);
    return $h2->release() ? 0 : 3;
});
var_dump($a->cmd('BLPOP', $p . 'ready', '10') !== null);
$w = new RedisLock\Semaphore('pool', 2, $o);
/* Refused first (the script marks the semaphore), woken by h1's release:
 * granted the last permit. */
var_dump($w->acquire(10000));
/* Its release leaves a wake-up in the list; a new object of this process
 * takes it with its first write, and the semaphore is full again. */
var_dump($w->release());
$x = new RedisLock\Semaphore('pool', 2, $o);
$sent = RedisLock::stats()['commands'];
var_dump($x->acquire(10000));
echo 'commands the new object sent: ', RedisLock::stats()['commands'] - $sent, "\n";

/* The commands of this process's connections from now on (MONITOR). */
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
$a->cmd('RPUSH', $p . 'go', '1');
$sent = RedisLock::stats()['commands'];
$stats = RedisLock::stats();
var_dump($w->acquire(10000));
echo 'commands sent: ', RedisLock::stats()['commands'] - $sent, ', refusals: ',
    RedisLock::stats()['contended'] - $stats['contended'], ', waits that ended: ', RedisLock::stats()['waits'] - $stats['waits'], "\n";
$a->cmd('ECHO', $p . 'end');
$seen = [];
while (($l = fgets($m)) !== false && !str_contains($l, $p . 'end')) {
    if (preg_match('/^\+[\d.]+ \[\d+ (\S+)\] "([^"]+)"/', $l, $g) && in_array($g[1], $ours, true)) {
        $seen[] = strtoupper($g[2]);
    }
}
echo 'this process: ', implode(' ', $seen), "\n";
echo 'exit code of the child: ', rl_cont_reap($child), "\n";
var_dump($w->release(), $x->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_blind_begins:');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
commands the new object sent: 2
bool(true)
bool(true)
commands sent: 2, refusals: 0, waits that ended: 1
this process: BLPOP EVALSHA
exit code of the child: 0
bool(true)
bool(true)
