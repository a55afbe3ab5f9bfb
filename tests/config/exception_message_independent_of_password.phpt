--TEST--
No failure message depends on the password's value: short passwords, or one that equals the port, cannot be read back from the message
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';

/* Free ports, none of them listening. */
$ports = [];
while (count($ports) < 4) {
    $p = rl_free_port();
    if (!in_array($p, $ports, true)) {
        $ports[] = $p;
    }
}
[$free, $q2, $q3, $q4] = $ports;
$srv = new RLServer();
$c = $srv->client();
$c->cmd('ACL', 'SETUSER', 'rltest_pw_user', 'reset', 'on', '>Another-Right-Password', '~*', '+@all');
$c->cmd('CONFIG', 'SET', 'requirepass', 'The-Right-Password-9');

/*
 * Passwords that occur in the messages' own words ("a", "e", "ed", "on"),
 * digits of the addresses ("1", "127", "0"), the port itself, and
 * characters that text replacement would treat specially. Every message is
 * compared with the one for a long password that occurs nowhere.
 */
$baseline = 'Zq-Baseline-Password-Nowhere-8';
$passwords = ['a', 'e', 'ed', 'on', '1', '127', '0', (string) $free, '*', '%25', ':', 'failed', 'Connection', 'WRONGPASS'];

/* The class and message of what $fn throws with password $pw (percent-encoded in a DSN). */
function outcome(callable $fn, string $pw): string
{
    try {
        $r = $fn($pw);
        return 'no exception: ' . var_export($r, true);
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}

$prefix = 'rltest:exception_message_independent_of_password:';
$scenarios = [
    'one server, refused' => fn($pw) => (new RedisLock('job', ['servers' => "redis://:$pw@127.0.0.1:$free", 'prefix' => $prefix]))->acquire(),
    'one server, user and password, refused' => fn($pw) => (new RedisLock('job', ['servers' => "redis://u:$pw@127.0.0.1:$free", 'prefix' => $prefix]))->acquire(),
    'run(), refused' => fn($pw) => (new RedisLock('job', ['servers' => "redis://:$pw@127.0.0.1:$free", 'prefix' => $prefix]))->run(fn() => 1),
    'quorum of three, refused' => fn($pw) => (new RedisLock('job', ['servers' => "redis://:$pw@127.0.0.1:$free,redis://:$pw@127.0.0.1:$q2,redis://:$pw@127.0.0.1:$q3", 'prefix' => $prefix]))->acquire(),
    'wrong password' => fn($pw) => (new RedisLock('job', ['servers' => $srv->dsn(":$pw"), 'prefix' => $prefix]))->acquire(),
    'wrong password of a user' => fn($pw) => (new RedisLock('job', ['servers' => $srv->dsn("rltest_pw_user:$pw"), 'prefix' => $prefix]))->acquire(),
    'quorum: two refused, one wrong password' => fn($pw) => (new RedisLock('job', ['servers' => "redis://:$pw@127.0.0.1:$q4,redis://:$pw@127.0.0.1:$q2," . $srv->dsn(":$pw"), 'prefix' => $prefix]))->acquire(),
    'unix socket, refused' => fn($pw) => (new RedisLock('job', ['servers' => "unix://:$pw@" . RL_RUNDIR . "/no-such-$free.sock", 'prefix' => $prefix]))->acquire(),
    'Sentinels, refused' => fn($pw) => (new RedisLock('job', ['servers' => "redis-sentinel://:$pw@127.0.0.1:$free?master=m&sentinel_password=$pw", 'prefix' => $prefix]))->acquire(),
    'Cluster seeds, refused' => fn($pw) => (new RedisLock('job', ['servers' => "redis-cluster://:$pw@127.0.0.1:$free", 'prefix' => $prefix]))->acquire(),
    'TLS, refused' => fn($pw) => (new RedisLock('job', ['servers' => "rediss://:$pw@127.0.0.1:$free", 'prefix' => $prefix]))->acquire(),
    'RateLimiter, wrong password' => fn($pw) => (new RedisLock\RateLimiter('rate', 10, 1000, ['servers' => $srv->dsn(":$pw"), 'prefix' => $prefix]))->consume(),
    'Atomic, refused' => fn($pw) => (new RedisLock\Atomic('value', ['servers' => "redis://:$pw@127.0.0.1:$free", 'prefix' => $prefix]))->get(),
    'forceRelease, wrong password' => fn($pw) => RedisLock::forceRelease('job', ['servers' => $srv->dsn(":$pw"), 'prefix' => $prefix]),
    'a DSN with a bad port' => fn($pw) => new RedisLock('job', ['servers' => "redis://:$pw@127.0.0.1:0"]),
];

foreach ($scenarios as $name => $fn) {
    $expected = outcome($fn, $baseline);
    $differ = [];
    foreach ($passwords as $pw) {
        $got = outcome($fn, $pw);
        if ($got !== $expected) {
            $differ[] = "\"$pw\": $got";
        }
    }
    echo $name, ': ', $differ ? "DEPENDS on the password\n  expected $expected\n  " . implode("\n  ", $differ) : 'same message for every password', "\n";
    if (str_contains($expected, $baseline)) {
        echo "  LEAK of the password\n";
    }
}
/* The messages say what happened, with the address of the server. */
echo str_replace((string) $srv->port, 'PORT', outcome($scenarios['wrong password'], $baseline)), "\n";
echo str_replace((string) $free, 'PORT', outcome($scenarios['one server, refused'], $baseline)), "\n";
$srv->stop();
?>
--EXPECT--
one server, refused: same message for every password
one server, user and password, refused: same message for every password
run(), refused: same message for every password
quorum of three, refused: same message for every password
wrong password: same message for every password
wrong password of a user: same message for every password
quorum: two refused, one wrong password: same message for every password
unix socket, refused: same message for every password
Sentinels, refused: same message for every password
Cluster seeds, refused: same message for every password
TLS, refused: same message for every password
RateLimiter, wrong password: same message for every password
Atomic, refused: same message for every password
forceRelease, wrong password: same message for every password
a DSN with a bad port: same message for every password
RedisLock\ConnectionException: acquire failed: authentication to 127.0.0.1:PORT failed: WRONGPASS invalid username-password pair or user is disabled.
RedisLock\ConnectionException: acquire failed: cannot connect to 127.0.0.1:PORT: Connection refused
