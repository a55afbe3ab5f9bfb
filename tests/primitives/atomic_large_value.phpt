--TEST--
Atomic: a value of any size written is read back (get(), update()); a reply larger than its operation reads is a server error at once, never a connection error
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
memory_limit=256M
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:atomic_large_value:';
$a = new RedisLock\Atomic('doc', ['servers' => RL_DSN, 'prefix' => $p]);

/* Just under, at and over the 64 KiB that small replies may take, and far over. */
$prev = null;
foreach ([65535, 65536, 65537, 1 << 20, 8 << 20] as $n) {
    $v = substr(str_repeat(hash('sha256', (string) $n, true), intdiv($n, 32) + 1), 0, $n);
    $ok = $a->compareAndSet($prev, $v);
    echo $n, ': ', var_export($ok, true), ', ', $a->get() === $v ? 'read back' : 'differs', "\n";
    $prev = $v;
}
$w = $a->update(fn (?string $old) => $old . 'tail');
echo 'update: ', strlen($w), ', ', $a->get() === $prev . 'tail' ? 'read back' : 'differs', "\n";
/* The connection that read them goes on. */
var_dump($a->compareAndSet($a->get(), 'small'), $a->get());

/* A server (here a proxy) answering with more than the operation reads: 999999999 bytes announced, or an
 * array of 999999999 elements. Refused as it is announced, as a server error: asking again gets the same. */
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 3000];
$pa = new RedisLock\Atomic('doc', $opts);
$rl = new RedisLock\RateLimiter('api', 10, 1000, $opts);
$l = new RedisLock('job', $opts + ['ttl' => 30000]);
$ops = [
    'get' => fn () => $pa->get(),
    'compareAndSet' => fn () => $pa->compareAndSet('x', 'y'),
    'increment' => fn () => $pa->increment(),
    'consume' => fn () => $rl->consume(),
    'acquire' => fn () => $l->acquire(),
];
foreach (['huge_bulk', 'huge_array'] as $fault) {
    foreach ($ops as $what => $fn) {
        $proxy->fault($fault);
        try {
            $fn();
            echo "$fault $what: returned\n";
        } catch (RedisLockException $e) {
            echo "$fault $what: ", get_class($e), ' ', $e->getCode() === RedisLockException::SERVER ? 'SERVER' : $e->getCode(),
                str_contains($e->getMessage(), 'too large') ? ', too large' : ': ' . $e->getMessage(), "\n";
        }
    }
}
$proxy->pass();
var_dump($pa->get(), $l->acquire(), $l->release());
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:atomic_large_value:');
?>
--EXPECT--
65535: true, read back
65536: true, read back
65537: true, read back
1048576: true, read back
8388608: true, read back
update: 8388612, read back
bool(true)
string(5) "small"
huge_bulk get: RedisLockException SERVER, too large
huge_bulk compareAndSet: RedisLockException SERVER, too large
huge_bulk increment: RedisLockException SERVER, too large
huge_bulk consume: RedisLockException SERVER, too large
huge_bulk acquire: RedisLockException SERVER, too large
huge_array get: RedisLockException SERVER, too large
huge_array compareAndSet: RedisLockException SERVER, too large
huge_array increment: RedisLockException SERVER, too large
huge_array consume: RedisLockException SERVER, too large
huge_array acquire: RedisLockException SERVER, too large
string(5) "small"
bool(true)
bool(true)
