--TEST--
RateLimiter and Atomic with their server down: ConnectionException naming the address (never the password), the last answer kept
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$port = rl_free_port();
$password = 'Sup3r-Secret-Pw';
$opts = ['servers' => "redis://rluser:$password@127.0.0.1:$port", 'connect_timeout' => 300,
         'prefix' => 'rltest:ratelimit_server_down:'];
$l = new RedisLock\RateLimiter('api', 5, 1000, $opts);
$a = new RedisLock\Atomic('stock', $opts);
$before = RedisLock::stats();
foreach (['consume' => fn () => $l->consume(), 'consume with a wait' => fn () => $l->consume(1, 500),
          'reset' => fn () => $l->reset(), 'get' => fn () => $a->get(),
          'compareAndSet' => fn () => $a->compareAndSet(null, '1'), 'update' => fn () => $a->update(fn ($v) => 'x'),
          'increment' => fn () => $a->increment(-1, 0)] as $what => $call) {
    try {
        var_dump($call());
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ' ', $e->getCode(), ': ', str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
        var_dump(str_contains((string) $e, $password));
    }
}
var_dump($l->remaining(), $l->retryAfter());
$after = RedisLock::stats();
var_dump($after['errors'] - $before['errors'], $after['rate_limited'] - $before['rate_limited']);

/* A server that goes away between two calls. */
$srv = new RLServer();
$l = new RedisLock\RateLimiter('api', 5, 1000, ['servers' => $srv->dsn(), 'connect_timeout' => 300]);
var_dump($l->consume(2), $l->remaining());
$srv->stop();
try {
    $l->consume();
} catch (RedisLock\ConnectionException $e) {
    echo "stopped: ConnectionException\n";
}
var_dump($l->remaining());
?>
--EXPECT--
consume: RedisLock\ConnectionException 2: consume failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
consume with a wait: RedisLock\ConnectionException 2: consume failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
reset: RedisLock\ConnectionException 2: reset failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
get: RedisLock\ConnectionException 2: get failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
compareAndSet: RedisLock\ConnectionException 2: compareAndSet failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
update: RedisLock\ConnectionException 2: get failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
increment: RedisLock\ConnectionException 2: increment failed: cannot connect to 127.0.0.1:PORT: Connection refused
bool(false)
int(5)
int(0)
int(7)
int(0)
bool(true)
int(3)
stopped: ConnectionException
int(3)
