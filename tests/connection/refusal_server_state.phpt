--TEST--
A server refusing because of its state (OOM at maxmemory, MISCONF after a failed save, READONLY as a replica, MASTERDOWN with its master gone, NOREPLICAS, BUSY with a script running) gives RedisLock\ConnectionException (code CONNECTION) from every class; errors about the request itself (NOPERM, WRONGTYPE) stay RedisLockException (code SERVER)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';
$prefix = 'rltest:refusal_server_state:';
/* Started in /proc, where no save can write its file, to show MISCONF. */
$srv = new RLServer(['--dir', '/proc']);
$c = $srv->client();

function kind(Throwable $e): string
{
    $codes = array_flip((new ReflectionClass(RedisLockException::class))->getConstants());
    return get_class($e) . ' (' . ($codes[$e->getCode()] ?? 'code ' . $e->getCode()) . ')';
}

/* Each class's write, on the server in state $what: the class and code,
 * and the message up to the first word of the server's reply (the rest
 * names scripts, and differs between versions of Redis). */
function show(string $what, RLServer $srv, string $prefix, string $userinfo = ''): void
{
    echo "$what\n";
    $opts = ['servers' => $srv->dsn($userinfo), 'prefix' => $prefix, 'read_timeout' => 2000];
    $calls = [
        'RedisLock::acquire' => fn() => (new RedisLock('job', $opts))->acquire(),
        'RateLimiter::consume' => fn() => (new RedisLock\RateLimiter('rate', 10, 1000, $opts))->consume(),
        'Atomic::increment' => fn() => (new RedisLock\Atomic('value', $opts))->increment(),
    ];
    foreach ($calls as $name => $call) {
        try {
            var_dump($call());
        } catch (RedisLockException $e) {
            $msg = str_replace((string) $srv->port, 'PORT', $e->getMessage());
            echo "  $name: ", kind($e), ': ', preg_replace('/(replied: \S+).*/s', '$1', $msg), "\n";
        }
    }
}

$c->cmd('CONFIG', 'SET', 'maxmemory', '1');
show('OOM', $srv, $prefix);
$c->cmd('CONFIG', 'SET', 'maxmemory', '0');

$c->cmd('CONFIG', 'SET', 'save', '3600 1');
$c->cmd('BGSAVE');
for ($i = 0; $i < 500 && $c->info('persistence', 'rdb_last_bgsave_status') !== 'err'; $i++) {
    usleep(10000);
}
show('MISCONF', $srv, $prefix);
$c->cmd('CONFIG', 'SET', 'save', '');

$c->cmd('CONFIG', 'SET', 'min-replicas-to-write', '1');
show('NOREPLICAS', $srv, $prefix);
$c->cmd('CONFIG', 'SET', 'min-replicas-to-write', '0');

/* A replica of a master that does not answer. */
$c->cmd('REPLICAOF', '127.0.0.1', (string) rl_free_port());
show('READONLY', $srv, $prefix);
$c->cmd('CONFIG', 'SET', 'replica-serve-stale-data', 'no');
show('MASTERDOWN', $srv, $prefix);
$c->cmd('CONFIG', 'SET', 'replica-serve-stale-data', 'yes');
$c->cmd('REPLICAOF', 'NO', 'ONE');

/* A script that loops until killed, past a 10 ms busy threshold. */
$c->cmd('CONFIG', 'SET', 'busy-reply-threshold', '10');
$busy = stream_socket_client('tcp://127.0.0.1:' . $srv->port);
$script = 'local i = 0 while true do i = i + 1 end';
fwrite($busy, "*3\r\n\$4\r\nEVAL\r\n\$" . strlen($script) . "\r\n$script\r\n\$1\r\n0\r\n");
$probe = $srv->client();
for ($i = 0; $i < 500 && !($probe->cmd('PING') instanceof RLError); $i++) {
    usleep(10000);
}
show('BUSY', $srv, $prefix);
var_dump($probe->cmd('SCRIPT', 'KILL'));
for ($i = 0; $i < 500 && $probe->cmd('PING') !== 'PONG'; $i++) {
    usleep(10000);
}
fclose($busy);

/* Errors about the request itself. */
$c->cmd('ACL', 'SETUSER', 'rltest_state_noperm', 'reset', 'on', '>Passw0rd-noperm', '~*', '+@all', '-evalsha', '-eval', '-set');
show('NOPERM', $srv, $prefix, 'rltest_state_noperm:Passw0rd-noperm');
$atomic = new RedisLock\Atomic('value', ['servers' => $srv->dsn(), 'prefix' => $prefix]);
var_dump($atomic->increment());
foreach ((array) $c->cmd('KEYS', $prefix . '*') as $k) {
    $c->cmd('DEL', $k);
    $c->cmd('HSET', $k, 'a', 'b');
}
try {
    var_dump($atomic->increment());
} catch (RedisLockException $e) {
    $msg = str_replace((string) $srv->port, 'PORT', $e->getMessage());
    echo "WRONGTYPE: ", kind($e), ': ', preg_replace('/(replied: \S+).*/s', '$1', $msg), "\n";
}
$srv->stop();
?>
--EXPECT--
OOM
  RedisLock::acquire: RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: OOM
  RateLimiter::consume: RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: OOM
  Atomic::increment: RedisLock\ConnectionException (CONNECTION): increment failed: 127.0.0.1:PORT replied: OOM
MISCONF
  RedisLock::acquire: RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: MISCONF
  RateLimiter::consume: RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: MISCONF
  Atomic::increment: RedisLock\ConnectionException (CONNECTION): increment failed: 127.0.0.1:PORT replied: MISCONF
NOREPLICAS
  RedisLock::acquire: RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: NOREPLICAS
  RateLimiter::consume: RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: NOREPLICAS
  Atomic::increment: RedisLock\ConnectionException (CONNECTION): increment failed: 127.0.0.1:PORT replied: NOREPLICAS
READONLY
  RedisLock::acquire: RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: READONLY
  RateLimiter::consume: RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: READONLY
  Atomic::increment: RedisLock\ConnectionException (CONNECTION): increment failed: 127.0.0.1:PORT replied: READONLY
MASTERDOWN
  RedisLock::acquire: RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: READONLY
  RateLimiter::consume: RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: MASTERDOWN
  Atomic::increment: RedisLock\ConnectionException (CONNECTION): increment failed: 127.0.0.1:PORT replied: MASTERDOWN
BUSY
  RedisLock::acquire: RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: BUSY
  RateLimiter::consume: RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: BUSY
  Atomic::increment: RedisLock\ConnectionException (CONNECTION): increment failed: 127.0.0.1:PORT replied: BUSY
string(2) "OK"
NOPERM
  RedisLock::acquire: RedisLockException (SERVER): acquire failed: 127.0.0.1:PORT replied: NOPERM
  RateLimiter::consume: RedisLockException (SERVER): consume failed: 127.0.0.1:PORT replied: NOPERM
  Atomic::increment: RedisLockException (SERVER): increment failed: 127.0.0.1:PORT replied: NOPERM
int(1)
WRONGTYPE: RedisLockException (SERVER): increment failed: 127.0.0.1:PORT replied: WRONGTYPE