<?php
/*
 * bench/keepalive.php PORT LOCKS SECONDS
 *
 * The keepalive thread's client CPU: LOCKS holds with a 30 ms ttl (a renewal
 * every 10 ms each) kept for SECONDS while the PHP thread sleeps, then the
 * thread's own CPU time (utime + stime of its task in /proc, in clock ticks)
 * over the renewals it made; then, nothing held, the same thread's CPU over
 * an idle 2 s (0 expected: it sleeps on a condition variable).
 */
[, $port, $locks, $seconds] = $argv + [1 => 6379, 2 => 10, 3 => 5];
$hz = (int) trim((string) shell_exec('getconf CLK_TCK')) ?: 100;

/* utime + stime, in ticks, of this process's task that is not its main thread. */
function thread_ticks(): int
{
    foreach (scandir('/proc/self/task') as $t) {
        if ($t !== '.' && $t !== '..' && (int) $t !== getmypid()) {
            $s = file_get_contents("/proc/self/task/$t/stat");
            $f = explode(' ', substr($s, strrpos($s, ')') + 2));
            return (int) $f[11] + (int) $f[12];
        }
    }
    return 0;
}

$held = [];
for ($i = 0; $i < (int) $locks; $i++) {
    $held[$i] = new RedisLock("bench:keepalive:$i", ['servers' => "redis://127.0.0.1:$port", 'ttl' => 30,
        'keepalive' => true, 'max_hold' => 600000]);
    $held[$i]->acquire();
}
$r0 = RedisLock::stats()['keepalive_renewals'];
$c0 = thread_ticks();
sleep((int) $seconds);
$c1 = thread_ticks();
$renewals = RedisLock::stats()['keepalive_renewals'] - $r0;
$kept = count(array_filter($held, fn ($l) => $l->isAcquired()));
foreach ($held as $l) {
    $l->release();
}
printf("renewals: %d in %d s (%d holds, ttl 30 ms), %d still held at the end\n", $renewals, $seconds, $locks, $kept);
printf("thread CPU: %.1f ms, %.1f us per renewal\n", ($c1 - $c0) * 1000 / $hz,
    $renewals ? ($c1 - $c0) * 1e6 / $hz / $renewals : 0);
$i0 = thread_ticks();
sleep(2);
printf("idle, nothing held: %d ticks of thread CPU in 2 s\n", thread_ticks() - $i0);
