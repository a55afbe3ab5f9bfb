--TEST--
Semaphore: a hold is released when its object dies and at the end of the request (exit, uncaught exception, fatal error), unless auto_release is off; a forked child never releases its parent's permits
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_request_end:';
/* The holds: in the sorted set, or one alone in the holder key ('+' there
 * when the holds are in the set). */
$holds = fn(string $name) => (int) rl_admin()->cmd('ZCARD', $p . $name . ':redislock-semaphore')
    + (int) !in_array(rl_admin()->cmd('GET', $p . $name . ':redislock-semaphore:redislock-holder'), [null, false, '+'], true);
/* The module this process runs, so the child PHP runs the same one. */
function module_path(): string
{
    foreach (file('/proc/self/maps') ?: [] as $line) {
        if (preg_match('~\s(/\S*/redislock\.so)$~', rtrim($line), $m)) {
            return $m[1];
        }
    }
    return __DIR__ . '/../../modules/redislock.so';
}
const CHILD = <<<'PHP'
[, $dsn, $prefix, $name, $auto, $how] = $argv;
function keep($s) { static $k; $k = $s; }
$s = new RedisLock\Semaphore($name, 3, ['servers' => $dsn, 'prefix' => $prefix, 'ttl' => 60000, 'auto_release' => $auto === '1']);
if (!$s->acquire()) {
    exit(3);
}
keep($s);
unset($s);
switch ($how) {
    case 'exit': exit(0);
    case 'throw': throw new RuntimeException('uncaught');
    case 'fatal': eval('function strlen() {}');
}
PHP;
foreach (['1' => 'on', '0' => 'off'] as $auto => $label) {
    foreach (['end', 'exit', 'throw', 'fatal'] as $how) {
        $name = "$label-$how";
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . module_path(), '-d', 'display_errors=0', '-d', 'log_errors=0',
            '-r', CHILD, '--', RL_DSN, $p, $name, (string) $auto, $how];
        $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        fclose($pipes[0]);
        stream_get_contents($pipes[1]);
        stream_get_contents($pipes[2]);
        proc_close($proc);
        echo "auto_release $label, $how: holds left ", $holds($name), "\n";
    }
}

/* Destruction inside the request. */
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 60000];
$s = new RedisLock\Semaphore('destroyed', 3, $o);
$s->acquire();
unset($s);
echo 'object destroyed: holds left ', $holds('destroyed'), "\n";

/* A forked child inherits the object: it holds nothing, releases nothing. */
$s = new RedisLock\Semaphore('forked', 3, $o);
$s->acquire();
$codes = rl_fork(1, function () use ($s): int {
    $ok = $s->token() === null && $s->remaining() === 0 && !$s->isAcquired() && !$s->release() && !$s->extend();
    unset($s);
    return $ok ? 0 : 2;
});
echo 'child ', json_encode($codes), ', parent still holds ', json_encode([$s->isAcquired(), $holds('forked')]), "\n";
$s->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_request_end:');
?>
--EXPECT--
auto_release on, end: holds left 0
auto_release on, exit: holds left 0
auto_release on, throw: holds left 0
auto_release on, fatal: holds left 0
auto_release off, end: holds left 1
auto_release off, exit: holds left 1
auto_release off, throw: holds left 1
auto_release off, fatal: holds left 1
object destroyed: holds left 0
child [0], parent still holds [true,1]
