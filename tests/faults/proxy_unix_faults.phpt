--TEST--
Proxy over a unix socket: the unix transport under the same faults as TCP and TLS (a stray reply behind another or while idle, replies cut byte by byte, a reply too late, a connection closed mid-reply, an error reply): right answers or an unknown outcome, never a wrong true
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
require __DIR__ . '/../core.inc';
$p = 'rltest:proxy_unix_faults:';
$other = str_repeat('0', 32);
$proxy = new RLProxy(unix: true);
$opts = ['servers' => $proxy->dsn(true), 'prefix' => $p, 'ttl' => 30000, 'read_timeout' => 2000];
var_dump(str_starts_with($opts['servers'], 'unix:///'));

/* How an operation ended: what it returned, or the kind of exception. */
function outcome(string $what, callable $fn): void
{
    try {
        $r = $fn();
        echo "$what: returned ", var_export($r, true), "\n";
    } catch (RedisLock\ConnectionException $e) {
        echo "$what: ConnectionException\n";
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), ' ', preg_replace('/^.*replied: /', '', $e->getMessage()), "\n";
    }
}

foreach (['right behind the reply' => 'extra :1', 'later, while idle' => 'extra :1 after=300'] as $when => $fault) {
    echo "-- stray $when\n";
    $a = new RedisLock('a', $opts);
    $b = new RedisLock('b', $opts);
    var_dump($a->acquire());
    rl_admin()->cmd('SET', $p . 'a', $other, 'PX', '30000'); /* a is taken over behind its back */
    $proxy->fault($fault);
    try {
        $r = $b->acquire();
        echo $r === true ? "b: acquired or unknown\n" : 'b: returned ' . var_export($r, true) . "\n";
    } catch (RedisLock\ConnectionException $e) {
        echo "b: acquired or unknown\n";
    }
    usleep(500000);
    /* The stray must not answer a's release: the server says 0. */
    outcome('release of a lock taken over', fn() => $a->release());
    var_dump(rl_admin()->cmd('GET', $p . 'a') === $other);
    rl_core_clean($p);
}

echo "-- replies cut byte by byte\n";
$proxy->fault('split 1 1');
$l = new RedisLock('s', $opts);
outcome('acquire', fn() => $l->acquire());
outcome('isAcquired', fn() => $l->isAcquired());
outcome('release', fn() => $l->release());
$proxy->pass();

echo "-- a reply too late\n";
$l = new RedisLock('d', array_merge($opts, ['read_timeout' => 300]));
$proxy->fault('delay 1000');
outcome('acquire', fn() => $l->acquire());
$proxy->pass();
usleep(1200000);
outcome('acquire again', fn() => $l->acquire());
var_dump(rl_admin()->cmd('GET', $p . 'd') === $l->token());
outcome('release', fn() => $l->release());

echo "-- closed mid-reply\n";
$l = new RedisLock('c', $opts);
var_dump($l->acquire());
rl_admin()->cmd('SET', $p . 'c', $other, 'PX', '30000');
$proxy->fault('close_mid');
outcome('release of a lock taken over', fn() => $l->release());
outcome('release again', fn() => $l->release());
var_dump(rl_admin()->cmd('GET', $p . 'c') === $other);

echo "-- an error reply\n";
$l = new RedisLock('e', $opts);
$proxy->fault('error NOPERM this user has no permissions to run the \'set\' command');
outcome('acquire', fn() => $l->acquire());
var_dump(rl_admin()->cmd('EXISTS', $p . 'e'));

$st = $proxy->stats();
var_dump($st['faulted'] + $st['intercepted'] >= 5, $st['accepted'] >= 3);
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_unix_faults:');
?>
--EXPECT--
bool(true)
-- stray right behind the reply
bool(true)
b: acquired or unknown
release of a lock taken over: returned false
bool(true)
-- stray later, while idle
bool(true)
b: acquired or unknown
release of a lock taken over: returned false
bool(true)
-- replies cut byte by byte
acquire: returned true
isAcquired: returned true
release: returned true
-- a reply too late
acquire: ConnectionException
acquire again: returned true
bool(true)
release: returned true
-- closed mid-reply
bool(true)
release of a lock taken over: ConnectionException
release again: returned false
bool(true)
-- an error reply
acquire: RedisLockException NOPERM this user has no permissions to run the 'set' command
int(0)
bool(true)
bool(true)
