--TEST--
Refusals a test cannot easily put a real server into (LOADING, MASTERDOWN, TRYAGAIN, CLUSTERDOWN), answered by a fault proxy in place of the server, give RedisLock\ConnectionException (code CONNECTION) with the server's text; an error reply that only starts like one (BUSYKEY) or any other ERR stays RedisLockException (code SERVER)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_refusal_replies:';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 1000];

function kind(Throwable $e): string
{
    $codes = array_flip((new ReflectionClass(RedisLockException::class))->getConstants());
    return get_class($e) . ' (' . ($codes[$e->getCode()] ?? 'code ' . $e->getCode()) . ')';
}

$replies = [
    'LOADING Redis is loading the dataset in memory',
    'MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to \'no\'.',
    'TRYAGAIN Multiple keys request during rehashing of slot',
    'CLUSTERDOWN The cluster is down',
    'BUSYKEY Target key name already exists.',
    'ERR injected',
];
$calls = [
    'acquire' => fn() => (new RedisLock('job', $opts))->acquire(),
    'consume' => fn() => (new RedisLock\RateLimiter('rate', 10, 1000, $opts))->consume(),
    'get' => fn() => (new RedisLock\Atomic('value', $opts))->get(),
];
foreach ($replies as $reply) {
    foreach ($calls as $name => $call) {
        $proxy->fault('times=0 error ' . $reply);
        try {
            var_dump($call());
        } catch (RedisLockException $e) {
            echo kind($e), ': ', str_replace((string) $proxy->port, 'PORT', $e->getMessage()), "\n";
        }
        $proxy->pass();
    }
}
var_dump(rl_admin()->cmd('EXISTS', $p . 'job'));
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
foreach ((array) rl_admin()->cmd('KEYS', 'rltest:proxy_refusal_replies:*') as $k) {
    rl_admin()->cmd('DEL', $k);
}
?>
--EXPECT--
RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: LOADING Redis is loading the dataset in memory
RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: LOADING Redis is loading the dataset in memory
RedisLock\ConnectionException (CONNECTION): get failed: 127.0.0.1:PORT replied: LOADING Redis is loading the dataset in memory
RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.
RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.
RedisLock\ConnectionException (CONNECTION): get failed: 127.0.0.1:PORT replied: MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.
RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: TRYAGAIN Multiple keys request during rehashing of slot
RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: TRYAGAIN Multiple keys request during rehashing of slot
RedisLock\ConnectionException (CONNECTION): get failed: 127.0.0.1:PORT replied: TRYAGAIN Multiple keys request during rehashing of slot
RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: CLUSTERDOWN The cluster is down
RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: CLUSTERDOWN The cluster is down
RedisLock\ConnectionException (CONNECTION): get failed: 127.0.0.1:PORT replied: CLUSTERDOWN The cluster is down
RedisLockException (SERVER): acquire failed: 127.0.0.1:PORT replied: BUSYKEY Target key name already exists.
RedisLockException (SERVER): consume failed: 127.0.0.1:PORT replied: BUSYKEY Target key name already exists.
RedisLockException (SERVER): get failed: 127.0.0.1:PORT replied: BUSYKEY Target key name already exists.
RedisLockException (SERVER): acquire failed: 127.0.0.1:PORT replied: ERR injected
RedisLockException (SERVER): consume failed: 127.0.0.1:PORT replied: ERR injected
RedisLockException (SERVER): get failed: 127.0.0.1:PORT replied: ERR injected
int(0)