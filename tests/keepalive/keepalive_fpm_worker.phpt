--TEST--
Keepalive under php-fpm: a worker's hold lasts across a long request, renewed by one thread per worker at most (none in a worker that never used keepalive), which uses no CPU once nothing is held, and a hold kept past its request (auto_release off) is renewed no more
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../fpm.inc';
if ($why = rl_fpm_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../fpm.inc';
$p = 'rltest:keepalive_fpm_worker:';
$admin = rl_admin();
$fpm = new RLFpm(1, ['redislock.servers' => RL_DSN, 'redislock.prefix' => $p]);
$fpm->script('plain.php', '<?php echo count(scandir("/proc/self/task")) - 2;');
$fpm->script('hold.php', <<<'PHP'
<?php
$l = new RedisLock('job', ['ttl' => 1000, 'keepalive' => true, 'auto_release' => $_GET['auto'] === '1']);
$ok = $l->acquire();
usleep((int) $_GET['sleep'] * 1000);
echo json_encode(['held' => $ok && $l->isAcquired(), 'threads' => count(scandir('/proc/self/task')) - 2]);
PHP);

echo 'never used keepalive: ', $fpm->request('plain.php'), " thread\n";
$h = $fpm->begin('hold.php', ['auto' => '1', 'sleep' => '3000']);
$over = 0;
for ($i = 0; $i < 300 && $admin->cmd('EXISTS', $p . 'job') !== 1; $i++) {
    usleep(10000);
}
for ($i = 0; $i < 25; $i++) {
    usleep(100000);
    $pttl = $admin->cmd('PTTL', $p . 'job');
    $over += $pttl > 1000 ? 1 : 0;
    if ($pttl < 0) {
        break;
    }
}
echo 'long request: ', $fpm->finish($h), ", lease above the ttl $over times\n";
echo 'second request: ', $fpm->request('hold.php', ['auto' => '1', 'sleep' => '0']), "\n";
var_dump($admin->cmd('EXISTS', $p . 'job'));

/* Idle: the keepalive thread (the worker's task that is not its main one) uses no CPU. */
$pid = $fpm->workers()[0];
$tids = array_values(array_diff(scandir("/proc/$pid/task"), ['.', '..', (string) $pid]));
$cpu = function () use ($pid, $tids): int {
    $f = explode(' ', substr(file_get_contents("/proc/$pid/task/{$tids[0]}/stat"), strrpos(file_get_contents("/proc/$pid/task/{$tids[0]}/stat"), ')') + 2));
    return (int) $f[11] + (int) $f[12]; /* utime + stime */
};
$before = $cpu();
sleep(1);
echo 'idle thread CPU ticks: ', $cpu() - $before, "\n";

/* Kept past its request: no renewal once the request ended, so it runs out at its ttl. */
$body = $fpm->request('hold.php', ['auto' => '0', 'sleep' => '0']);
echo 'auto_release off: ', $body, ' key ', $admin->cmd('EXISTS', $p . 'job');
for ($i = 0; $i < 300 && $admin->cmd('EXISTS', $p . 'job') === 1; $i++) {
    usleep(10000);
}
echo ', then ', $admin->cmd('EXISTS', $p . 'job'), ' while the worker lives: ', var_export(rl_fpm_alive($pid), true), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_fpm_worker:');
?>
--EXPECT--
never used keepalive: 1 thread
long request: {"held":true,"threads":2}, lease above the ttl 0 times
second request: {"held":true,"threads":2}
int(0)
idle thread CPU ticks: 0
auto_release off: {"held":true,"threads":2} key 1, then 0 while the worker lives: true
