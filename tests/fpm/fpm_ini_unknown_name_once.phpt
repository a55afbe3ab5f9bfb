--TEST--
php-fpm: a misspelled redislock.* name in php.ini is reported once, by the master at startup, with the nearest known name: not once per worker or per request
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
$fpm = new RLFpm(2, ['redislock.servers' => RL_DSN], ['pm.max_requests' => 2],
    /* As php.ini-production has it: startup errors logged, not shown. */
    "display_errors = Off\ndisplay_startup_errors = Off\nlog_errors = On\nredislock.server = redis://127.0.0.1:1\n");
$fpm->script('ini.php', '<?php echo ini_get("redislock.servers") === $_GET["dsn"] ? "servers from the pool" : "other", "\n";');
$bodies = $fpm->requests(array_fill(0, 6, ['ini.php', ['dsn' => RL_DSN]]), 2);
echo implode('', array_unique($bodies));
$log = $fpm->log();
$lines = preg_grep('/redislock: unknown INI setting/', explode("\n", $log));
echo count($lines), " line(s)\n";
echo preg_replace('/^.*?(redislock: unknown INI setting[^\n]*?) in Unknown on line 0.*$/s', '$1', $log), "\n";
$fpm->stop();
?>
--EXPECT--
servers from the pool
1 line(s)
redislock: unknown INI setting "redislock.server" (did you mean "redislock.servers"?)
