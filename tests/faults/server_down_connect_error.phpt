--TEST--
Nothing listening: acquire() throws RedisLockException naming the address (never the password), without waiting
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$port = rl_free_port();
$password = 'Sup3r-Secret-Pw';
$l = new RedisLock('job', [
    'servers' => "redis://rluser:$password@127.0.0.1:$port",
    'prefix' => 'rltest:server_down_connect_error:',
    'connect_timeout' => 500,
]);
$before = RedisLock::stats();

foreach (['acquire' => fn() => $l->acquire(), 'acquire with a wait' => fn() => $l->acquire(300),
          'run' => fn() => $l->run(fn() => 'ran')] as $what => $call) {
    echo "$what: ";
    $t = hrtime(true);
    try {
        var_dump($call());
    } catch (RedisLockException $e) {
        $ms = (hrtime(true) - $t) / 1e6;
        echo get_class($e), ': ', str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
        var_dump(str_contains($e->getMessage(), $password), str_contains((string) $e, $password));
        /* Refused at once: well within the connect timeout. */
        var_dump($ms < 500 + 1000);
    }
}

/* Not held, so these need no server and do not throw. */
var_dump($l->token(), $l->remaining(), $l->isAcquired(), $l->release(), $l->extend());

$after = RedisLock::stats();
var_dump($after['errors'] - $before['errors']);
var_dump($after['connects'] - $before['connects']);
?>
--EXPECT--
acquire: RedisLock\ConnectionException: acquire failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
bool(false)
bool(true)
acquire with a wait: RedisLock\ConnectionException: acquire failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
bool(false)
bool(true)
run: RedisLock\ConnectionException: acquire failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
bool(false)
bool(true)
NULL
int(0)
bool(false)
bool(false)
bool(false)
int(3)
int(0)
