--TEST--
A server that requires a password refuses as "unavailable" whether none is given (NOAUTH) or a wrong one (WRONGPASS): RedisLock\ConnectionException (code CONNECTION) from every class, NOAUTH's message saying that no password is configured, and never the password
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../failures.inc';
$prefix = 'rltest:refusal_password_required:';
$secret = 'Rotated-Passw0rd-7';
$srv = new RLServer();
$srv->client()->cmd('CONFIG', 'SET', 'requirepass', $secret);

function kind(Throwable $e): string
{
    $codes = array_flip((new ReflectionClass(RedisLockException::class))->getConstants());
    return get_class($e) . ' (' . ($codes[$e->getCode()] ?? 'code ' . $e->getCode()) . ')';
}

foreach (['no password' => '', 'a wrong password' => ':Wr0ng-Passw0rd'] as $what => $userinfo) {
    echo "$what\n";
    $opts = ['servers' => $srv->dsn($userinfo), 'prefix' => $prefix];
    $calls = [
        'RedisLock::acquire' => fn() => (new RedisLock('job', $opts))->acquire(),
        'RedisLock::run' => fn() => (new RedisLock('job', $opts))->run(fn() => 'never'),
        'RateLimiter::consume' => fn() => (new RedisLock\RateLimiter('rate', 10, 1000, $opts))->consume(),
        'Atomic::get' => fn() => (new RedisLock\Atomic('value', $opts))->get(),
        'RedisLock::forceRelease' => fn() => RedisLock::forceRelease('job', $opts),
    ];
    foreach ($calls as $name => $call) {
        try {
            var_dump($call());
        } catch (RedisLockException $e) {
            echo "$name: ", kind($e), ': ', str_replace((string) $srv->port, 'PORT', $e->getMessage()), "\n";
            if (str_contains((string) $e, $secret) || str_contains((string) $e, 'Wr0ng-Passw0rd')) {
                echo "LEAK\n";
            }
        }
    }
}

echo "the right password\n";
$l = new RedisLock('job', ['servers' => $srv->dsn(":$secret"), 'prefix' => $prefix]);
var_dump($l->acquire(), $l->release());
$srv->stop();
?>
--EXPECTF--
no password
RedisLock::acquire: RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: NOAUTH Authentication required. (the server requires a password, and none is configured for it)
RedisLock::run: RedisLock\ConnectionException (CONNECTION): acquire failed: 127.0.0.1:PORT replied: NOAUTH Authentication required. (the server requires a password, and none is configured for it)
RateLimiter::consume: RedisLock\ConnectionException (CONNECTION): consume failed: 127.0.0.1:PORT replied: NOAUTH Authentication required. (the server requires a password, and none is configured for it)
Atomic::get: RedisLock\ConnectionException (CONNECTION): get failed: 127.0.0.1:PORT replied: NOAUTH Authentication required. (the server requires a password, and none is configured for it)
RedisLock::forceRelease: RedisLock\ConnectionException (CONNECTION): forceRelease failed: 127.0.0.1:PORT replied: %s (the server requires a password, and none is configured for it)
a wrong password
RedisLock::acquire: RedisLock\ConnectionException (CONNECTION): acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
RedisLock::run: RedisLock\ConnectionException (CONNECTION): acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
RateLimiter::consume: RedisLock\ConnectionException (CONNECTION): consume failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
Atomic::get: RedisLock\ConnectionException (CONNECTION): get failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
RedisLock::forceRelease: RedisLock\ConnectionException (CONNECTION): forceRelease failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
the right password
bool(true)
bool(true)
