--TEST--
phpinfo() shows the redislock section (version, connections, counters, INI entries) and never a password
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
redislock.servers="redis://rluser:InfoMasterSecret@127.0.0.1:6379"
--FILE--
<?php
require __DIR__ . '/../config.inc';
$admin = rl_admin();
$admin->cmd('ACL', 'SETUSER', 'rltest_phpinfo', 'reset', 'on', '>Info%Runtime Secret', '~rltest:phpinfo_section:*', '+@all');
$dsn = 'redis://rltest_phpinfo:' . rawurlencode('Info%Runtime Secret') . '@' . RL_HOST . ':' . RL_PORT;
var_dump(ini_set('redislock.servers', $dsn) !== false);

$l = new RedisLock('job', ['prefix' => 'rltest:phpinfo_section:']);
var_dump($l->acquire(), $l->release());

ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
$start = strpos($info, "\nredislock\n");
var_dump($start !== false);
$section = substr($info, $start, strpos($info, "\n\n", strpos($info, 'redislock.ttl')) - $start);

var_dump(str_contains($section, 'redislock support => enabled'));
var_dump((bool) preg_match('/^Version => \d+\.\d+\.\d+/m', $section));
foreach (['servers', 'prefix', 'ttl', 'connect_timeout', 'read_timeout', 'persistent', 'auto_release'] as $ini) {
    if (!preg_match('/^redislock\.' . $ini . ' => /m', $section)) {
        echo "INI entry redislock.$ini missing\n";
    }
}
/* The connection just used, and every counter with its value. */
var_dump((bool) preg_match('/^' . preg_quote(RL_HOST . ':' . RL_PORT) . ' => persistent, pid ' . getmypid() . '/m', $section));
foreach (RedisLock::stats() as $name => $value) {
    if (!preg_match('/^' . $name . ' => ' . $value . '$/m', $section)) {
        echo "counter $name missing or wrong\n";
    }
}
/* Neither the runtime nor the php.ini password, raw or encoded. */
foreach (['InfoMasterSecret', 'Info%Runtime Secret', rawurlencode('Info%Runtime Secret')] as $secret) {
    if (str_contains($info, $secret)) {
        echo "phpinfo shows a password: $secret\n";
    }
}
/* The server is still named. */
var_dump(str_contains($section, '127.0.0.1:6379'), str_contains($section, RL_HOST . ':' . RL_PORT));
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('ACL', 'DELUSER', 'rltest_phpinfo');
rl_admin()->cmd('DEL', 'rltest:phpinfo_section:job');
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
