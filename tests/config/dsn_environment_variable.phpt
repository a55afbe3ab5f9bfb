--TEST--
A password from an environment variable: php.ini's "redis://:${VAR}@..." works when VAR is set; when it is not, php.ini leaves an empty password, which is an error (RedisLockException CONFIG) before anything is sent, never an empty AUTH; a "${VAR}" left unexpanded in a DSN names the variable (ValueError), never its value
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!function_exists('proc_open')) die('skip proc_open() not available');
?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$secret = 'Env-Passw0rd-Value-3';
$srv = new RLServer();
$admin = $srv->client(); /* authenticated before the password was set: stays so */
$admin->cmd('CONFIG', 'SET', 'requirepass', $secret);
$prefix = 'rltest:dsn_environment_variable:';

/* A child php whose php.ini entry (a -d, parsed as php.ini is) takes the
 * password from RL_TEST_DSN_PASSWORD; it inherits this process's
 * environment, putenv() included. */
function child(RLServer $srv, string $prefix): string
{
    $code = 'try { $l = new RedisLock("job"); var_dump($l->acquire(), $l->release()); }'
        . ' catch (Throwable $e) { echo get_class($e), " ", $e->getCode(), ": ", $e->getMessage(), "\n"; }';
    $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . rl_proxy_module(), '-d', 'display_errors=stderr',
        '-d', 'redislock.servers="redis://:${RL_TEST_DSN_PASSWORD}@127.0.0.1:' . $srv->port . '"',
        '-d', 'redislock.prefix=' . $prefix, '-r', $code];
    $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    proc_close($proc);
    return str_replace((string) $srv->port, 'PORT', $out);
}

function auths(RLClient $admin): int
{
    preg_match('/calls=(\d+)/', (string) $admin->info('commandstats', 'cmdstat_auth'), $m);
    return (int) ($m[1] ?? 0);
}

echo "php.ini, the variable not set\n";
putenv('RL_TEST_DSN_PASSWORD');
$before = auths($admin);
echo child($srv, $prefix);
var_dump(auths($admin) - $before);

echo "php.ini, the variable set\n";
putenv("RL_TEST_DSN_PASSWORD=$secret");
$before = auths($admin);
echo child($srv, $prefix);
var_dump(auths($admin) - $before); /* the count sees an AUTH */

echo "a DSN written with \${...} in PHP\n";
foreach (['not set' => false, 'set' => true] as $what => $set) {
    putenv($set ? "RL_TEST_DSN_PASSWORD=$secret" : 'RL_TEST_DSN_PASSWORD');
    foreach (['redis://:${RL_TEST_DSN_PASSWORD}@127.0.0.1:' . $srv->port,
              'redis://${RL_TEST_DSN_PASSWORD}:x@127.0.0.1:' . $srv->port,
              'redis-sentinel://127.0.0.1:' . $srv->port . '?master=m&sentinel_password=${RL_TEST_DSN_PASSWORD}'] as $dsn) {
        try {
            new RedisLock('job', ['servers' => $dsn]);
        } catch (ValueError $e) {
            echo "$what: ", $e->getMessage(), "\n";
            var_dump(str_contains((string) $e, $secret));
        }
    }
}

echo "an empty password in PHP\n";
try {
    new RedisLock('job', ['servers' => 'redis://:@127.0.0.1:' . $srv->port]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
echo "a password that really is \${...}: its \$ percent-encoded\n";
$admin->cmd('CONFIG', 'SET', 'requirepass', '${NOT_A_VARIABLE}');
$l = new RedisLock('job', ['servers' => 'redis://:%24{NOT_A_VARIABLE}@127.0.0.1:' . $srv->port, 'prefix' => $prefix]);
var_dump($l->acquire(), $l->release());
putenv('RL_TEST_DSN_PASSWORD');
$srv->stop();
?>
--EXPECT--
php.ini, the variable not set
RedisLockException 1: INI entry redislock.servers is not a valid DSN list: server 1: the password is empty (php.ini puts "" for a ${NAME} whose variable is not set)
redislock: INI entry redislock.servers is not a valid DSN list: server 1: the password is empty (php.ini puts "" for a ${NAME} whose variable is not set); every lock that uses it throws until it is fixed
int(0)
php.ini, the variable set
bool(true)
bool(true)
int(1)
a DSN written with ${...} in PHP
not set: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the password is ${RL_TEST_DSN_PASSWORD}, and the environment variable RL_TEST_DSN_PASSWORD is not set
bool(false)
not set: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the user name is ${RL_TEST_DSN_PASSWORD}, and the environment variable RL_TEST_DSN_PASSWORD is not set
bool(false)
not set: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the query parameter sentinel_password is ${RL_TEST_DSN_PASSWORD}, and the environment variable RL_TEST_DSN_PASSWORD is not set
bool(false)
set: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the password is ${RL_TEST_DSN_PASSWORD} unexpanded: only php.ini expands it (in PHP, use getenv())
bool(false)
set: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the user name is ${RL_TEST_DSN_PASSWORD} unexpanded: only php.ini expands it (in PHP, use getenv())
bool(false)
set: RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the query parameter sentinel_password is ${RL_TEST_DSN_PASSWORD} unexpanded: only php.ini expands it (in PHP, use getenv())
bool(false)
an empty password in PHP
RedisLock::__construct(): Argument #2 ($options) option "servers" is not a valid DSN list: server 1: the password is empty (php.ini puts "" for a ${NAME} whose variable is not set)
a password that really is ${...}: its $ percent-encoded
bool(true)
bool(true)
