--TEST--
Quorum: a user whose ACL refuses INFO (-NOPERM) works as before: the check that two names reach one server is skipped in silence, and the locks are granted and released
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$servers = rl_quorum_servers(3);
foreach ($servers as $s) {
    var_dump($s->client()->cmd('ACL', 'SETUSER', 'locker', 'on', '>locker-pw', '~*', '&*', '+@all', '-info'));
}
$list = implode(',', array_map(fn(RLServer $s) => $s->dsn('locker:locker-pw'), $servers));
$refused = $servers[0]->client();
var_dump($refused->cmd('AUTH', 'locker', 'locker-pw'));
$info = $refused->cmd('INFO', 'server');
echo $info instanceof RLError ? 'INFO refused: ' . strtok($info->message, ' ') : 'INFO allowed', "\n";
foreach ([true, false] as $persistent) {
    $lock = new RedisLock('job', ['servers' => $list, 'prefix' => 'rltest:quorum_info_refused_no_check:',
        'quorum_timeout' => 2000, 'persistent' => $persistent]);
    for ($i = 0; $i < 2; $i++) {
        var_dump($lock->acquire(), $lock->release());
    }
}
?>
--EXPECT--
string(2) "OK"
string(2) "OK"
string(2) "OK"
string(2) "OK"
INFO refused: NOPERM
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
