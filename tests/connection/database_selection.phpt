--TEST--
A DSN with a database number puts the lock key in that database only (TCP /db and unix socket ?db=)
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (RL_SOCKET === '') {
    die('skip no unix socket for the test server');
}
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:database_selection:';
$key = $p . 'job';

/* What each database holds under the key. */
function where(string $key): array
{
    $c = new RLClient();
    $out = [];
    foreach ([0, 2, 3] as $db) {
        $c->cmd('SELECT', (string) $db);
        $out[$db] = $c->cmd('GET', $key);
    }
    return $out;
}

echo "redis:// /3:\n";
$l3 = new RedisLock('job', ['servers' => RL_DSN . '/3', 'prefix' => $p]);
var_dump($l3->acquire());
var_dump(where($key) === [0 => null, 2 => null, 3 => $l3->token()]);

echo "unix ?db=2:\n";
$l2 = new RedisLock('job', ['servers' => 'unix://' . RL_SOCKET . '?db=2', 'prefix' => $p]);
var_dump($l2->acquire());
var_dump(where($key) === [0 => null, 2 => $l2->token(), 3 => $l3->token()]);

echo "default database 0 is a separate lock:\n";
$l0 = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p]);
var_dump($l0->acquire());
var_dump(where($key) === [0 => $l0->token(), 2 => $l2->token(), 3 => $l3->token()]);
$l3b = new RedisLock('job', ['servers' => RL_DSN . '/3', 'prefix' => $p]);
var_dump($l3b->acquire());

echo "release each:\n";
var_dump($l3->release());
var_dump(where($key) === [0 => $l0->token(), 2 => $l2->token(), 3 => null]);
var_dump($l2->release(), $l0->release());
var_dump(where($key) === [0 => null, 2 => null, 3 => null]);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:database_selection:', [0, 2, 3]);
?>
--EXPECT--
redis:// /3:
bool(true)
bool(true)
unix ?db=2:
bool(true)
bool(true)
default database 0 is a separate lock:
bool(true)
bool(true)
bool(false)
release each:
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
