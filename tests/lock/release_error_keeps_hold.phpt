--TEST--
A release refused by the server (the script did not run) keeps the hold: release() can be retried, and nothing is forgotten
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$srv = new RLServer();
$c = $srv->client();
$prefix = 'rltest:release_error_keeps_hold:';
$key = $prefix . 'job';
var_dump($c->cmd('ACL', 'SETUSER', 'rltest_rel', 'reset', 'on', '>Rel-Passw0rd', '~' . $prefix . '*', '+@all'));
$l = new RedisLock('job', ['servers' => $srv->dsn('rltest_rel:Rel-Passw0rd'), 'prefix' => $prefix]);
var_dump($l->acquire());
$token = $l->token();

/* Scripts (and the native compare-and-delete of a server that has one)
 * no longer allowed: the release cannot run (NOPERM). */
$n = rl_server_natives($c);
$release = array_merge(['evalsha', 'eval'], $n['delifeq'] ? ['delifeq'] : [], $n['delex'] ? ['delex'] : []);
$c->cmd('ACL', 'SETUSER', 'rltest_rel', ...array_map(fn($w) => "-$w", $release));
try {
    var_dump($l->release());
} catch (RedisLockException $e) {
    echo get_class($e), ': ', preg_replace('/:\d+/', ':PORT', $e->getMessage()), "\n";
}
var_dump($l->token() === $token, $c->cmd('GET', $key) === $token);

/* Allowed again: the same object releases its hold. */
$c->cmd('ACL', 'SETUSER', 'rltest_rel', ...array_map(fn($w) => "+$w", $release));
var_dump($l->release(), $l->token(), $c->cmd('GET', $key));
?>
--EXPECTF--
string(2) "OK"
bool(true)
RedisLockException: release failed: 127.0.0.1:PORT replied: NOPERM %s
bool(true)
bool(true)
bool(true)
NULL
NULL
