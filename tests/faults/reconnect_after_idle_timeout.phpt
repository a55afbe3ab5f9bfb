--TEST--
A pooled connection closed by the server's idle timeout is replaced transparently
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$srv = new RLServer();
$prefix = 'rltest:reconnect_after_idle_timeout:';
$l = new RedisLock('job', ['servers' => $srv->dsn(), 'prefix' => $prefix]);
var_dump($l->acquire(), $l->release());

/* Our connection as the server lists it (a fresh admin connection each time:
 * an idle one would be closed by the timeout too). */
function ours(RLServer $srv): int
{
    $list = (string) $srv->client()->cmd('CLIENT', 'LIST');
    return preg_match_all('/ name=redislock:' . getmypid() . ' /', $list);
}

var_dump(ours($srv));
var_dump($srv->client()->cmd('CONFIG', 'SET', 'timeout', '1'));
$before = RedisLock::stats();

/* Wait until the server has closed it (idle for more than 1 s). */
for ($i = 0; $i < 100 && ours($srv) > 0; $i++) {
    usleep(100000);
}
var_dump(ours($srv));

var_dump($l->acquire());
var_dump($srv->client()->cmd('GET', $prefix . 'job') === $l->token());
var_dump($l->release());
var_dump($srv->client()->cmd('EXISTS', $prefix . 'job'));

$after = RedisLock::stats();
var_dump($after['reconnects'] - $before['reconnects']);
var_dump($after['errors'] - $before['errors']);
$srv->stop();
?>
--EXPECT--
bool(true)
bool(true)
int(1)
string(2) "OK"
int(0)
bool(true)
bool(true)
bool(true)
int(0)
int(1)
int(0)
