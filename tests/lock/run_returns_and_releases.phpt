--TEST--
run() returns the callable's value and releases the lock, also when the callable throws; on a held lock it throws
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:run_returns_and_releases:';
$key = $p . 'job';
$opts = ['servers' => RL_DSN, 'prefix' => $p];
$lock = new RedisLock('job', $opts);

echo "returns:\n";
$r = $lock->run(function () use ($lock, $key) {
    echo 'inside, held: ', var_export(rl_admin()->cmd('GET', $key) === $lock->token(), true), "\n";
    return ['answer' => 42];
});
var_dump($r);
var_dump(rl_admin()->cmd('EXISTS', $key), $lock->token());
var_dump($lock->run(fn () => null, 100));
var_dump($lock->run('getmypid', 0) === getmypid());

echo "throws:\n";
$thrown = new DomainException('from the callable', 7);
try {
    $lock->run(function () use ($thrown) {
        throw $thrown;
    });
} catch (Throwable $e) {
    var_dump($e === $thrown, $e->getPrevious());
}
var_dump(rl_admin()->cmd('EXISTS', $key), $lock->token());

echo "held elsewhere:\n";
$holder = new RedisLock('job', $opts);
var_dump($holder->acquire());
foreach ([0, 100] as $wait) {
    $called = false;
    try {
        $lock->run(function () use (&$called) {
            $called = true;
        }, $wait);
    } catch (RedisLockException $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    var_dump($called);
}
var_dump(rl_admin()->cmd('GET', $key) === $holder->token());
var_dump($holder->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:run_returns_and_releases:');
?>
--EXPECT--
returns:
inside, held: true
array(1) {
  ["answer"]=>
  int(42)
}
int(0)
NULL
NULL
bool(true)
throws:
bool(true)
NULL
int(0)
NULL
held elsewhere:
bool(true)
RedisLock\ConflictException: could not acquire the lock within 0 ms
bool(false)
RedisLock\ConflictException: could not acquire the lock within 100 ms
bool(false)
bool(true)
bool(true)
