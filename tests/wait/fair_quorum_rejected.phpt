--TEST--
Fair mode: asking for it with several servers is a ValueError naming the option
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$two = 'redis://127.0.0.1:' . RL_PORT . ',redis://127.0.0.1:1';
$three = $two . ',redis://127.0.0.1:2';
$cases = [
    'option, 2 servers' => ['servers' => $two, 'fair' => true],
    'option, 3 servers' => ['servers' => $three, 'fair' => true],
    'option off, 2 servers' => ['servers' => $two, 'fair' => false],
    'option, 1 server' => ['servers' => RL_DSN, 'fair' => true],
];
foreach ($cases as $what => $opts) {
    echo "$what: ";
    try {
        new RedisLock('job', $opts);
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
/* redislock.fair=1 comes from the INI section. */
ini_set('redislock.servers', $two);
echo 'INI, 2 servers: ';
try {
    new RedisLock('job');
    echo "accepted\n";
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--INI--
redislock.fair=1
--EXPECTF--
option, 2 servers: ValueError: RedisLock::__construct(): Argument #2 ($options) option "fair" %s
option, 3 servers: ValueError: RedisLock::__construct(): Argument #2 ($options) option "fair" %s
option off, 2 servers: accepted
option, 1 server: accepted
INI, 2 servers: ValueError: redislock.fair needs a single server, redislock.servers lists 2
