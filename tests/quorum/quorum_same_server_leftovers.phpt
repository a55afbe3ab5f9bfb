--TEST--
Quorum: on a list naming one server twice, the token each refused acquire leaves behind is removed by the next exchange and forgotten there (its release's reply counts, though the exchange itself is refused), so the releases carried ahead of each command stay one per server and never crowd out the leftovers of other locks
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$servers = [new RLServer(), new RLServer()];
$a = $servers[0]->port;
$b = $servers[1]->port;
$prefix = 'rltest:quorum_same_server_leftovers:';
$options = ['servers' => "redis://127.0.0.1:$a,redis://localhost:$a,redis://127.0.0.1:$b", 'prefix' => $prefix,
    'quorum_timeout' => 2000];

/* Commands sent by the acquires of 10 names, after $before refused ones. */
$refused = 0;
$sent = function (int $from) use ($options, &$refused): int {
    $before = RedisLock::stats()['commands'];
    for ($i = $from; $i < $from + 10; $i++) {
        try {
            (new RedisLock("job$i", $options + ['auto_release' => false]))->acquire();
        } catch (RedisLockException $e) {
            $refused += $e->getCode() === RedisLockException::CONFIG;
        }
    }
    return RedisLock::stats()['commands'] - $before;
};
$first = $sent(0);
$later = $sent(10);
$last = $sent(20);
echo "refused: $refused of 30\n";
/* Each acquire: to each of the 3 names, the release of the token the
 * acquire before it left and its own SET, plus the handshake (3 commands)
 * of the second name of one server, whose connection each refusal closes:
 * 9. Releases that are never forgotten would add 3 more with every acquire
 * (each name's), up to the 64 leftovers kept. */
echo "commands, acquires 11-20: ", $later <= 10 * 9 ? 'at most 9 an acquire' : "$later", "\n";
echo "commands, acquires 21-30: ", $last <= 10 * 9 ? 'at most 9 an acquire' : "$last", "\n";

/* Nothing of the refused acquires stays on the servers but the last
 * one's token, which the next exchange removes. */
$keys = rl_quorum_keys($servers);
echo "keys left on a: ", count($keys[0]), ", on b: ", count($keys[1]), "\n";
$other = new RedisLock('job29', rl_quorum_opts($servers, $prefix));
var_dump($other->acquire(), $other->release());
$keys = rl_quorum_keys($servers);
echo "keys left on a: ", count($keys[0]), ", on b: ", count($keys[1]), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:quorum_same_server_leftovers:');
?>
--EXPECT--
refused: 30 of 30
commands, acquires 11-20: at most 9 an acquire
commands, acquires 21-30: at most 9 an acquire
keys left on a: 1, on b: 1
bool(true)
bool(true)
keys left on a: 0, on b: 0
