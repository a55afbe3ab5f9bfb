--TEST--
Atomic::compareAndSet(): byte-exact compare, null for absent, null deletes, expiry set or kept; get()
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:atomic_compare_and_set:';
$key = $p . 'doc';
$a = new RedisLock\Atomic('doc', ['servers' => RL_DSN, 'prefix' => $p]);
var_dump($a->get());
var_dump($a->compareAndSet('', 'x'));          /* absent is not the empty string */
var_dump($a->compareAndSet(null, "v1\0a"));    /* created */
var_dump($a->compareAndSet(null, 'v2'));       /* not absent any more */
var_dump($a->compareAndSet("v1\0b", 'v2'));    /* differs after the NUL byte */
var_dump($a->compareAndSet("v1", 'v2'));       /* a prefix is not the value */
var_dump($a->compareAndSet("V1\0a", 'v2'));    /* case matters */
var_dump(bin2hex($a->get()));
var_dump($a->compareAndSet("v1\0a", '', 60000)); /* the empty string is a value; expiry set */
$pttl = rl_admin()->cmd('PTTL', $key);
var_dump($a->get(), $pttl > 59000 && $pttl <= 60000);
var_dump($a->compareAndSet('', 'kept'));       /* null ttl keeps the expiry */
$pttl = rl_admin()->cmd('PTTL', $key);
var_dump($pttl > 0 && $pttl <= 60000);
var_dump($a->compareAndSet('kept', null));     /* deleted */
var_dump(rl_admin()->cmd('EXISTS', $key), $a->get());
var_dump($a->compareAndSet(null, null));       /* absent stays absent: true */
var_dump($a->compareAndSet(null, 'new'), rl_admin()->cmd('PTTL', $key)); /* a new key has no expiry */
/* A key of another type is an error reply, not a conflict. */
rl_admin()->cmd('DEL', $key);
rl_admin()->cmd('LPUSH', $key, 'x');
foreach ([fn () => $a->get(), fn () => $a->compareAndSet(null, 'x'), fn () => $a->increment()] as $f) {
    try {
        $f();
    } catch (RedisLockException $e) {
        echo get_class($e), ' ', $e->getCode(), ': ', str_contains($e->getMessage(), 'WRONGTYPE') ? 'WRONGTYPE' : $e->getMessage(), "\n";
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:atomic_compare_and_set:');
?>
--EXPECT--
NULL
bool(false)
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
string(8) "76310061"
bool(true)
string(0) ""
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
NULL
bool(true)
bool(true)
int(-1)
RedisLockException 3: WRONGTYPE
RedisLockException 3: WRONGTYPE
RedisLockException 3: WRONGTYPE
