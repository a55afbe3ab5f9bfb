--TEST--
No failure message, string form or trace of an exception shows a password or an owner token
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';
$admin = rl_admin();
$prefix = 'rltest:exception_never_leaks_secrets:';
$secrets = ['Leak-Pw-Refused', 'Leak-Pw-Wrong', 'Leak-Pw-Noperm', 'Leak-Pw-Frozen', 'Leak-Pw-Bad-Dsn'];
$admin->cmd('ACL', 'SETUSER', 'rltest_leak_user', 'reset', 'on', '>Leak-Pw-Noperm', '~' . $prefix . 'allowed:*', '+@all');
$srv = new RLServer();
$srv->client()->cmd('ACL', 'SETUSER', 'rltest_leak_frozen', 'reset', 'on', '>Leak-Pw-Frozen', '~*', '+@all');
$free = rl_free_port();
$tokens = [];

/* Prints the exception and checks it for every secret and token seen so far. */
function check(Throwable $e): void
{
    global $secrets, $tokens, $free, $srv;
    echo str_replace(RL_SOCKET, 'SOCKET', rl_msg($e, $free, RL_PORT, $srv->port)), "\n";
    foreach (array_merge($secrets, array_filter($tokens)) as $s) {
        foreach ([$e->getMessage(), (string) $e, $e->getTraceAsString()] as $text) {
            if (str_contains($text, $s)) {
                echo "  LEAK of $s\n";
            }
        }
    }
}

function attempt(callable $fn): void
{
    try {
        var_dump($fn());
    } catch (Throwable $e) {
        check($e);
    }
}

$refused = "redis://rltest_leak_user:Leak-Pw-Refused@127.0.0.1:$free";
$wrong = 'redis://rltest_leak_user:Leak-Pw-Wrong@' . RL_HOST . ':' . RL_PORT;
$noperm = 'redis://rltest_leak_user:Leak-Pw-Noperm@' . RL_HOST . ':' . RL_PORT;
$frozen = $srv->dsn('rltest_leak_frozen:Leak-Pw-Frozen');

echo "connect refused\n";
$l = new RedisLock('job', ['servers' => $refused, 'prefix' => $prefix]);
attempt(fn() => $l->acquire());
attempt(fn() => $l->run(fn() => 1, 50));

echo "wrong password\n";
$l = new RedisLock('job', ['servers' => $wrong, 'prefix' => $prefix]);
attempt(fn() => $l->acquire());

echo "NOPERM\n";
$l = new RedisLock('job', ['servers' => $noperm, 'prefix' => $prefix . 'denied:']);
attempt(fn() => $l->acquire());
$l = new RedisLock('job', ['servers' => $noperm, 'prefix' => $prefix . 'allowed:']);
attempt(fn() => $l->acquire());
$tokens[] = $l->token();
$admin->cmd('ACL', 'SETUSER', 'rltest_leak_user', 'resetkeys');
attempt(fn() => $l->extend());
attempt(fn() => $l->release());
$admin->cmd('ACL', 'SETUSER', 'rltest_leak_user', '~' . $prefix . 'allowed:*');

echo "timeout while held\n";
$l = new RedisLock('job', ['servers' => $frozen, 'prefix' => $prefix, 'read_timeout' => 200, 'ttl' => 60000]);
attempt(fn() => $l->acquire());
$tokens[] = $l->token();
$srv->freeze();
try {
    attempt(fn() => $l->isAcquired());
    attempt(fn() => $l->extend());
    attempt(fn() => $l->acquire());
    attempt(fn() => $l->release());
} finally {
    $srv->thaw();
}

echo "no quorum\n";
$noperm_unix = 'unix://rltest_leak_user:Leak-Pw-Noperm@' . RL_SOCKET;
$l = new RedisLock('job', ['servers' => "$refused,$wrong,$noperm_unix", 'prefix' => $prefix . 'denied:']);
attempt(fn() => $l->acquire());

echo "bad DSN\n";
attempt(fn() => new RedisLock('job', ['servers' => 'redis://u:Leak-Pw-Bad-Dsn@127.0.0.1:0']));
attempt(fn() => new RedisLock('job', ['servers' => "$refused,redis://u:Leak-Pw-Bad-Dsn@127.0.0.1:$free"]));
attempt(fn() => new RedisLock('job', ['servers' => 'redis://u:Leak-Pw-Bad-Dsn%zz@127.0.0.1']));
attempt(fn() => new RedisLock('job', ['servers' => 'redis://u:Leak-Pw-Bad-Dsn@127.0.0.1', 'ttl' => 0]));

var_dump(count($tokens), strlen($tokens[0]), strlen($tokens[1]));
$srv->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../config.inc';
rl_admin()->cmd('ACL', 'DELUSER', 'rltest_leak_user');
foreach ((array) rl_admin()->cmd('KEYS', 'rltest:exception_never_leaks_secrets:*') as $k) {
    rl_admin()->cmd('DEL', $k);
}
?>
--EXPECTF--
connect refused
RedisLock\ConnectionException: acquire failed: cannot connect to 127.0.0.1:PORT: Connection refused
RedisLock\ConnectionException: acquire failed: cannot connect to 127.0.0.1:PORT: Connection refused
wrong password
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS %s
NOPERM
RedisLockException: acquire failed: 127.0.0.1:PORT replied: NOPERM %s
bool(true)
RedisLockException: extend failed: 127.0.0.1:PORT replied: NOPERM %s
RedisLockException: release failed: 127.0.0.1:PORT replied: NOPERM %s
timeout while held
bool(true)
RedisLock\ConnectionException: isAcquired failed: 127.0.0.1:PORT did not reply within 200 ms
RedisLock\ConnectionException: extend failed: 127.0.0.1:PORT did not reply within 200 ms
RedisLock\ConnectionException: %s failed: 127.0.0.1:PORT did not reply within 200 ms
RedisLock\ConnectionException: release failed: 127.0.0.1:PORT did not reply within 200 ms
no quorum
RedisLock\ConnectionException: acquire failed: no quorum (2 of 3 servers needed, 3 failed); cannot connect to 127.0.0.1:PORT: Connection refused; authentication to 127.0.0.1:PORT failed: WRONGPASS %s; SOCKET replied: NOPERM %s
bad DSN
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the port must be a number between 1 and 65535
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: servers 1 and 2 are the same server (127.0.0.1:PORT)
ValueError: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: malformed percent-escape in the password
ValueError: RedisLock::__construct(): Argument #2 ($options) option "ttl" must be between 1 and 2147483647
int(2)
int(32)
int(32)
