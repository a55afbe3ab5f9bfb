--TEST--
Semaphore::run(): acquire, call, release in all cases; ConflictException without a permit in time; ReleaseException when the release fails; run() inside its own run() is an Error
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$o = ['servers' => RL_DSN, 'prefix' => 'rltest:sem_run:', 'ttl' => 10000];
$s = new RedisLock\Semaphore('pool', 1, $o);
$other = new RedisLock\Semaphore('pool', 1, $o);
$r = $s->run(function () use ($other) {
    echo 'inside: other gets none ', json_encode($other->acquire()), "\n";
    return 42;
});
echo 'returns ', $r, ', released after ', json_encode([$s->token(), $other->acquire()]), "\n";
try {
    $s->run(fn() => print("not called\n"), 200);
} catch (RedisLock\ConflictException $e) {
    echo get_class($e), ', is a RedisLockException ', json_encode($e instanceof RedisLockException), ': ',
        $e->getMessage(), "\n";
}
$other->release();
try {
    $s->run(function () {
        throw new LogicException('from fn');
    });
} catch (LogicException $e) {
    echo 'fn threw: ', $e->getMessage(), ', released ', json_encode($other->acquire()), "\n";
}
$other->release();
try {
    $s->run(fn() => $s->run(fn() => 1));
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
echo 'released after the Error ', json_encode($other->acquire()), "\n";
$other->release();
/* The release fails: the server is gone when fn returns. */
$srv = new RLServer();
$d = new RedisLock\Semaphore('pool', 1, ['servers' => $srv->dsn(), 'ttl' => 10000, 'read_timeout' => 300]);
try {
    $d->run(function () use ($srv) {
        $srv->stop();
        return 'result';
    });
} catch (RedisLock\ReleaseException $e) {
    echo get_class($e), ' carrying ', json_encode($e->result()), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_run:');
?>
--EXPECT--
inside: other gets none false
returns 42, released after [null,true]
RedisLock\ConflictException, is a RedisLockException true: could not acquire the permits within 200 ms
fn threw: from fn, released true
Error: RedisLock\Semaphore::run() is already running on this object
released after the Error true
RedisLock\ReleaseException carrying "result"
