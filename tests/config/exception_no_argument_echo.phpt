--TEST--
A server that echoes a command's arguments cut short (here AUTH, renamed away) never gets any part of the password into an exception
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
/* With AUTH renamed, the server answers our AUTH with "unknown command
 * 'AUTH', with args beginning with: ..." and the password cut short. */
$srv = new RLServer(['--rename-command', 'AUTH', 'rltest-auth-renamed']);
$password = 'Zq' . str_repeat('9xK3', 60);
foreach (["rluser:$password", ":$password"] as $userinfo) {
    $l = new RedisLock('job', ['servers' => $srv->dsn($userinfo), 'prefix' => 'rltest:exception_no_argument_echo:']);
    try {
        var_dump($l->acquire());
    } catch (RedisLockException $e) {
        $msg = $e->getMessage();
        echo str_replace((string) $srv->port, 'PORT', $msg), "\n";
        $leak = false;
        for ($i = 0; $i + 8 <= strlen($password); $i++) {
            $leak = $leak || str_contains($msg, substr($password, $i, 8));
        }
        echo $leak ? "part of the password shown\n" : "no part of the password\n";
    }
}
?>
--EXPECT--
acquire failed: authentication to 127.0.0.1:PORT failed: ERR unknown command 'AUTH'
no part of the password
acquire failed: authentication to 127.0.0.1:PORT failed: ERR unknown command 'AUTH'
no part of the password
