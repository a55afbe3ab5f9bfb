--TEST--
A server at maxclients: the exception says "max number of clients reached", not a broken pipe
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$srv = new RLServer(['--maxclients', '1']);
/* This connection takes the only place. */
$c = $srv->client();
var_dump($c->cmd('PING'));
$locks = [];
foreach (['redis://127.0.0.1:' . $srv->port, 'redis://127.0.0.1:' . $srv->port . '/1'] as $dsn) {
    $locks[] = $l = new RedisLock('job', ['servers' => $dsn, 'prefix' => 'rltest:maxclients_reported:']);
    try {
        var_dump($l->acquire());
    } catch (RedisLockException $e) {
        echo get_class($e), ': ', str_replace((string) $srv->port, 'PORT', $e->getMessage()), "\n";
    }
}
/* A place again: the same lock works. */
unset($c);
/* (The server notices the closed connection on its next event loop turn.) */
for ($i = 0, $ok = false; $i < 100 && !$ok; $i++) {
    try {
        $ok = $locks[0]->acquire();
    } catch (RedisLockException $e) {
        usleep(20000);
    }
}
var_dump($ok, $locks[0]->release());
?>
--EXPECT--
string(4) "PONG"
RedisLock\ConnectionException: acquire failed: 127.0.0.1:PORT refused the connection: ERR max number of clients reached
RedisLock\ConnectionException: acquire failed: 127.0.0.1:PORT/1 refused the connection: ERR max number of clients reached
bool(true)
bool(true)
