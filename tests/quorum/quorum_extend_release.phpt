--TEST--
Quorum: extend() renews the lease on every server and survives one server restarted empty; with two restarted it fails and the hold is lost
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../quorum.inc';
$prefix = 'rltest:quorum_extend_release:';
$key = $prefix . 'job';
$servers = rl_quorum_servers(3);
$lock = new RedisLock('job', rl_quorum_opts($servers, $prefix, ['ttl' => 10000]));

/* PTTL of the key on each server, as ranges that say what happened. */
function pttls(array $servers, string $key): string
{
    $out = [];
    foreach ($servers as $i => $s) {
        $p = $s->client()->cmd('PTTL', $key);
        $out[] = "$i:" . match (true) {
            $p === -2 => 'none',
            $p > 20000 && $p <= 30000 => '20-30s',
            $p > 10000 && $p <= 20000 => '10-20s',
            $p > 0 && $p <= 10000 => '0-10s',
            default => "unexpected $p",
        };
    }
    return implode(' ', $out);
}

echo "all up\n";
var_dump($lock->acquire());
$token = $lock->token();
echo pttls($servers, $key), "\n";
var_dump($lock->extend(30000));
echo pttls($servers, $key), "\n";
var_dump($lock->remaining() > 20000);
var_dump(rl_quorum_values($servers, $key) === array_fill(0, 3, $token));
var_dump($lock->release());
var_dump(rl_quorum_keys($servers));

echo "one server restarted empty\n";
var_dump($lock->acquire());
$token = $lock->token();
rl_quorum_restart($servers[0]);
var_dump($lock->extend(20000));
echo pttls($servers, $key), "\n";
var_dump($lock->token() === $token, $lock->remaining() > 10000);
var_dump($lock->isAcquired());
var_dump($lock->release());
var_dump(rl_quorum_keys($servers));

echo "two servers restarted empty\n";
var_dump($lock->acquire());
$token = $lock->token();
rl_quorum_restart($servers[0]);
rl_quorum_restart($servers[1]);
var_dump($lock->extend(20000));
/* Lost: the token left on the third server is taken back. */
echo pttls($servers, $key), "\n";
var_dump($lock->isAcquired(), $lock->token(), $lock->remaining());
var_dump($lock->extend());
var_dump($lock->release());
/* Someone else can take it at once. */
$other = new RedisLock('job', rl_quorum_opts($servers, $prefix));
var_dump($other->acquire(), $other->release());
var_dump(rl_quorum_keys($servers));
?>
--EXPECT--
all up
bool(true)
0:0-10s 1:0-10s 2:0-10s
bool(true)
0:20-30s 1:20-30s 2:20-30s
bool(true)
bool(true)
bool(true)
array(3) {
  [0]=>
  array(0) {
  }
  [1]=>
  array(0) {
  }
  [2]=>
  array(0) {
  }
}
one server restarted empty
bool(true)
bool(true)
0:none 1:10-20s 2:10-20s
bool(true)
bool(true)
bool(true)
bool(true)
array(3) {
  [0]=>
  array(0) {
  }
  [1]=>
  array(0) {
  }
  [2]=>
  array(0) {
  }
}
two servers restarted empty
bool(true)
bool(false)
0:none 1:none 2:none
bool(false)
NULL
int(0)
bool(false)
bool(false)
bool(true)
bool(true)
array(3) {
  [0]=>
  array(0) {
  }
  [1]=>
  array(0) {
  }
  [2]=>
  array(0) {
  }
}
