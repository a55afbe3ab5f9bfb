--TEST--
After a lease expires and another owner takes the lock, the old owner's release() and extend() fail and touch nothing
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:acquire_expired_takeover:';
$key = $p . 'job';

/* Wait (bounded) until the server has dropped the key. */
function wait_gone(string $key): void
{
    for ($i = 0; $i < 300 && rl_admin()->cmd('EXISTS', $key) !== 0; $i++) {
        usleep(10000);
    }
}

foreach (['extend first', 'release first'] as $round) {
    echo "$round:\n";
    $old = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 200]);
    var_dump($old->acquire());
    $oldToken = $old->token();
    usleep(250000);
    wait_gone($key);
    var_dump($old->remaining());

    $new = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 60000]);
    var_dump($new->acquire());
    var_dump($new->token() !== $oldToken);

    if ($round === 'extend first') {
        /* extend() finds it lost: the object no longer claims it. */
        var_dump($old->extend(), $old->token(), $old->release());
    } else {
        var_dump($old->release(), $old->extend());
    }
    var_dump($old->isAcquired(), $old->token(), $old->remaining());

    /* The new owner's key, token and lease are untouched. */
    var_dump(rl_admin()->cmd('GET', $key) === $new->token());
    $pttl = rl_admin()->cmd('PTTL', $key);
    var_dump($pttl > 50000 && $pttl <= 60000);
    var_dump($new->isAcquired());
    var_dump($new->release());
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:acquire_expired_takeover:');
?>
--EXPECT--
extend first:
bool(true)
int(0)
bool(true)
bool(true)
bool(false)
NULL
bool(false)
bool(false)
NULL
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
release first:
bool(true)
int(0)
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
NULL
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
