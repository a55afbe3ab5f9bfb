--TEST--
Locks still held when a request ends (exit(), uncaught exception, fatal error, normal end) are released, unless auto_release is false
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:auto_release_request_end:';

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

/* A request that takes the lock, keeps it somewhere and ends the way $how says. */
const CHILD = <<<'PHP'
[, $dsn, $prefix, $name, $auto, $how] = $argv;
function keep(RedisLock $l): void { static $s; $s = $l; }
$lock = new RedisLock($name, ['servers' => $dsn, 'prefix' => $prefix, 'ttl' => 60000, 'auto_release' => $auto === '1']);
if (!$lock->acquire()) {
    exit(3);
}
echo $lock->token(), "\n";
switch ($how) {
    case 'exit':
        $GLOBALS['held'] = $lock;
        exit(0);
    case 'throw':
        $GLOBALS['held'] = $lock;
        throw new RuntimeException('uncaught');
    case 'fatal':
        $GLOBALS['held'] = $lock;
        eval('function strlen() {}');
        break;
    case 'static':
        keep($lock);
        break;
    case 'cycle':
        $o = new stdClass();
        $o->self = $o;
        $o->lock = $lock;
        break;
}
unset($lock);
PHP;

/* Runs the child; returns [exit code, token it printed]. */
function run_child(string $name, bool $auto, string $how): array
{
    global $p;
    $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . module_path(), '-d', 'display_errors=stderr',
        '-d', 'log_errors=0', '-r', CHILD, '--', RL_DSN, $p, $name, $auto ? '1' : '0', $how];
    $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    $code = proc_close($proc);
    if (!preg_match('/^[0-9a-f]{32}$/D', trim($out))) {
        echo "child ($how) printed: $out\n$err\n";
    }
    return [$code, trim($out)];
}

echo "auto_release on:\n";
foreach (['exit', 'throw', 'fatal', 'static', 'cycle'] as $how) {
    [$code, $token] = run_child("on-$how", true, $how);
    printf("%-6s exit %d, key %s\n", $how, $code, rl_admin()->cmd('EXISTS', $p . "on-$how") ? 'kept' : 'gone');
}

echo "auto_release off:\n";
foreach (['exit', 'fatal'] as $how) {
    [$code, $token] = run_child("off-$how", false, $how);
    $kept = rl_admin()->cmd('GET', $p . "off-$how") === $token;
    printf("%-6s exit %d, key %s\n", $how, $code, $kept ? 'kept with its token' : 'not as left');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:auto_release_request_end:');
?>
--EXPECT--
auto_release on:
exit   exit 0, key gone
throw  exit 255, key gone
fatal  exit 255, key gone
static exit 0, key gone
cycle  exit 0, key gone
auto_release off:
exit   exit 0, key kept with its token
fatal  exit 255, key kept with its token
