--TEST--
A php-fpm worker forked while the module file is being rewritten in place (truncated) is born and lives: the extension runs no code at fork
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
/* No redislock.* in the pool's php_value/php_admin_value: FPM applies
 * those in each new worker, which would run the extension's INI handlers. */
$fpm = new RLFpm(1);
$fpm->script('pid.php', '<?php echo getmypid(), " ", var_export(extension_loaded("redislock"), true);');
[$first] = $fpm->workers();
echo 'served: ', var_export($fpm->request('pid.php') === "$first true", true), "\n";

/* The first step of an in-place rewrite (PEAR's installer copies over the
 * installed file): the file the master and its workers mapped is now empty,
 * and the kernel has dropped their pages of it. */
fclose(fopen($fpm->dir . '/redislock.so', 'w'));
clearstatcache();
echo 'module file size: ', filesize($fpm->dir . '/redislock.so'), "\n";

/* The master replaces a worker that died: the new one is forked from a
 * process whose module pages are gone. Code of the module run at fork
 * would kill it at once, and each replacement after it. */
$started = preg_match_all('/child \d+ started/', $fpm->log());
rl_kill($first, 9);
$born = rl_fpm_until(fn() => ($w = $fpm->workers()) && $w[0] !== $first, 10000);
[$second] = $fpm->workers() + [null];
echo 'a new worker: ', var_export($born, true), "\n";
$crash = '/exited on signal (4|7|11)\b/';
echo 'a worker crashed within a second: ', var_export(rl_fpm_until(fn() => preg_match($crash, $fpm->log()) === 1, 1000), true), "\n";
echo 'the new worker still there, the only one started since: ', var_export($fpm->workers() === [$second]
    && preg_match_all('/child \d+ started/', $fpm->log()) === $started + 1, true), "\n";

/* The pool cannot serve any more (a request runs the module's code, and a
 * stop runs its shutdown): it ends by SIGKILL, which runs no code. */
$left = $fpm->workers();
rl_kill($fpm->pid, 9);
foreach ($left as $pid) {
    rl_kill($pid, 9);
}
$fpm->stop();
?>
--EXPECT--
served: true
module file size: 0
a new worker: true
a worker crashed within a second: false
the new worker still there, the only one started since: true
