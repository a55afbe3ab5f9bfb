--TEST--
Exceptions say what kind of failure it was: ConflictException (held elsewhere, code CONFLICT), ConnectionException (unreachable, no reply, or refused because of the server's state: code CONNECTION), a server's error reply about the request (RedisLockException, code SERVER), ReleaseException carrying run()'s result (code RELEASE); RedisLock implements RedisLock\Lock
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:exception_kinds:';

function kind(Throwable $e): string
{
    $codes = array_flip((new ReflectionClass(RedisLockException::class))->getConstants());
    return get_class($e) . ' (' . ($codes[$e->getCode()] ?? 'code ' . $e->getCode()) . ')';
}

echo "the hierarchy\n";
var_dump(is_subclass_of(RedisLock\ConflictException::class, RedisLockException::class));
var_dump(is_subclass_of(RedisLock\ConnectionException::class, RedisLockException::class));
var_dump(is_subclass_of(RedisLock\ReleaseException::class, RedisLockException::class));
var_dump((new ReflectionClass(RedisLock\ReleaseException::class))->isFinal());
var_dump(new RedisLock('x') instanceof RedisLock\Lock);
var_dump(array_map(fn($m) => $m->getName(), (new ReflectionClass(RedisLock\Lock::class))->getMethods()));
var_dump(count(array_unique((new ReflectionClass(RedisLockException::class))->getConstants())));

echo "held elsewhere\n";
$holder = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p]);
var_dump($holder->acquire());
try {
    (new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p]))->run(fn() => 'never', 50);
} catch (RedisLockException $e) {
    echo kind($e), ': ', $e->getMessage(), "\n";
}
var_dump($holder->release());

echo "nobody listening\n";
$port = rl_free_port();
try {
    (new RedisLock('job', ['servers' => "redis://127.0.0.1:$port", 'prefix' => $p]))->acquire();
} catch (RedisLockException $e) {
    echo kind($e), "\n";
}

$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 300];
$l = new RedisLock('job', $opts);
echo "no reply in time\n";
$proxy->fault('silent');
try {
    $l->acquire();
} catch (RedisLockException $e) {
    echo kind($e), "\n";
}
$proxy->pass();

echo "an error reply about the request\n";
$proxy->fault('cmd=SET error NOPERM this user has no permissions to run the \'set\' command');
try {
    $l->acquire();
} catch (RedisLockException $e) {
    echo kind($e), ': ', str_replace((string) $proxy->port, 'PORT', $e->getMessage()), "\n";
}
$proxy->pass();

echo "a refusal of the server's state\n";
$proxy->fault('cmd=SET error OOM command not allowed');
try {
    $l->acquire();
} catch (RedisLockException $e) {
    echo kind($e), ': ', str_replace((string) $proxy->port, 'PORT', $e->getMessage()), "\n";
}
$proxy->pass();

echo "run(): the work is done, the release fails\n";
$count = 0;
try {
    $l->run(function () use ($proxy, &$count) {
        $count++;
        $proxy->fault('error ERR injected');
        return ['order' => 42];
    });
} catch (RedisLock\ReleaseException $e) {
    echo kind($e), ': ', str_replace((string) $proxy->port, 'PORT', $e->getMessage()), "\n";
    var_dump($e->result(), $count);
}
$proxy->pass();
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('DEL', 'rltest:exception_kinds:job');
?>
--EXPECT--
the hierarchy
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(8) {
  [0]=>
  string(7) "acquire"
  [1]=>
  string(7) "release"
  [2]=>
  string(6) "extend"
  [3]=>
  string(10) "isAcquired"
  [4]=>
  string(9) "remaining"
  [5]=>
  string(5) "token"
  [6]=>
  string(5) "fence"
  [7]=>
  string(3) "run"
}
int(5)
held elsewhere
bool(true)
RedisLock\ConflictException (CONFLICT): could not acquire the lock within 50 ms
bool(true)
nobody listening
RedisLock\ConnectionException (CONNECTION)
no reply in time
RedisLock\ConnectionException (CONNECTION)
an error reply about the request
RedisLockException (SERVER): acquire failed: 127.0.0.1:PORT replied: NOPERM this user has no permissions to run the 'set' command
a refusal of the server's state
RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: OOM command not allowed
run(): the work is done, the release fails
RedisLock\ReleaseException (RELEASE): the work is done, but releasing the lock failed: release failed: 127.0.0.1:PORT replied: ERR injected
array(1) {
  ["order"]=>
  int(42)
}
int(1)
