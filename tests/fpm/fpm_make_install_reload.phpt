--TEST--
make install of a new build into a running php-fpm's extension directory: the running workers keep serving locks with the file they loaded, a reload serves them with the new one
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../fpm.inc';
if ($why = rl_fpm_missing()) die("skip $why");
if (!is_file(dirname(rl_fpm_module(), 2) . '/Makefile')) die('skip no phpize build tree (Makefile) beside the module');
if (!is_executable('/usr/bin/make')) die('skip make not installed');
?>
--FILE--
<?php
require __DIR__ . '/../fpm.inc';
$p = 'rltest:fpm_make_install_reload:';
$fpm = new RLFpm(2, ['redislock.servers' => RL_DSN, 'redislock.prefix' => $p]);
/* The pool loads the module from its own directory, its extension_dir here. */
$installed = $fpm->dir . '/redislock.so';
$fpm->script('lock.php', <<<'PHP'
<?php
/* The module file this worker runs (device:inode from /proc/self/maps;
 * "(deleted)" once its name points at another file), and a lock taken
 * and released with it. */
$map = null;
foreach (file('/proc/self/maps') as $line) {
    if (preg_match('~^\S+ \S+ \S+ (\S+) (\d+)\s+(/\S*/redislock\.so)( \(deleted\))?$~', rtrim($line), $m)) {
        $map = ['inode' => (int) $m[2], 'deleted' => isset($m[4])];
        break;
    }
}
$lock = new RedisLock('order:' . $_GET['n']);
$ok = $lock->acquire() && $lock->release();
echo json_encode(['pid' => getmypid(), 'ok' => $ok] + (array) $map);
PHP);

/* Every worker serves a few requests; returns what they said, checked. */
function serve(RLFpm $fpm, string $phase, int $inode, bool $deleted, array $workers): void
{
    $list = [];
    for ($i = 0; $i < 8; $i++) {
        $list[] = ['lock.php', ['n' => "$phase-$i"]];
    }
    $replies = array_map(fn($b) => json_decode((string) $b, true), $fpm->requests($list, 2));
    $good = array_filter($replies, fn($r) => is_array($r) && $r['ok'] === true && $r['inode'] === $inode
        && $r['deleted'] === $deleted && in_array($r['pid'], $workers, true));
    echo "$phase: ", count($good), ' of ', count($list), " served by the workers with that file\n";
    if (count($good) !== count($list)) {
        var_dump($replies, $inode, $workers);
    }
}

$old = $fpm->workers();
$oldInode = fileinode($installed);
serve($fpm, 'before install', $oldInode, false, $old);

/* A new build in a build tree (the module with bytes appended, a file of
 * other content and size), installed by the phpize Makefile's own rule,
 * with the build step emptied: make install-modules EXTENSION_DIR=<the pool's>. */
$tree = $fpm->dir . '/newbuild';
@mkdir("$tree/modules", 0700, true);
$build = file_get_contents(rl_fpm_module()) . "\0a new build\0";
file_put_contents("$tree/modules/redislock.so", $build);
exec(sprintf('/usr/bin/make -s -C %s -f %s install-modules PHP_MODULES= PHP_ZEND_EX= EXTENSION_DIR=%s 2>&1',
    escapeshellarg($tree), escapeshellarg(dirname(rl_fpm_module(), 2) . '/Makefile'), escapeshellarg($fpm->dir)), $out, $rc);
echo 'make install-modules: ', $rc === 0 ? 'ok' : "failed: $rc " . implode("\n", $out), "\n";
clearstatcache();
$newInode = fileinode($installed);
echo 'installed file is the new build: ', var_export(file_get_contents($installed) === $build, true), "\n";
echo 'a new file, the old one left alone: ', var_export($newInode !== $oldInode, true), "\n";

/* The running workers go on with the file they mapped, now nameless. */
serve($fpm, 'after install', $oldInode, true, $old);
echo 'same workers: ', var_export($fpm->workers() === $old, true), "\n";

/* A reload (SIGUSR2: the master re-executes itself) loads the new file. */
rl_kill($fpm->pid, 12);
$reloaded = rl_fpm_until(function () use ($fpm, $old) {
    $now = $fpm->workers();
    return count($now) === 2 && !array_intersect($now, $old)
        && ($s = @stream_socket_client('unix://' . $fpm->socket)) && fclose($s);
}, 60000);
echo 'reloaded with new workers: ', var_export($reloaded, true), "\n";
serve($fpm, 'after reload', $newInode, false, $fpm->workers());

echo 'no worker crashed: ', var_export(!preg_match('/exited on signal (4|7|11)\b/', $fpm->log()), true), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fpm_make_install_reload:');
?>
--EXPECT--
before install: 8 of 8 served by the workers with that file
make install-modules: ok
installed file is the new build: true
a new file, the old one left alone: true
after install: 8 of 8 served by the workers with that file
same workers: true
reloaded with new workers: true
after reload: 8 of 8 served by the workers with that file
no worker crashed: true
