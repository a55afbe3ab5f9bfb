--TEST--
Semaphore: at most limit holds at once, each with its own token and lease; release frees a permit; available() counts the live holds
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../core.inc';
$o = ['servers' => RL_DSN, 'prefix' => 'rltest:sem_basic:', 'ttl' => 5000];
$s = [];
for ($i = 0; $i < 4; $i++) {
    $s[$i] = new RedisLock\Semaphore('pool', 3, $o);
}
echo json_encode([$s[0]->acquire(), $s[1]->acquire(), $s[2]->acquire(), $s[3]->acquire()]), "\n";
echo 'available ', $s[3]->available(), "\n";
$tokens = array_map(fn($x) => $x->token(), $s);
echo 'tokens ', json_encode(array_map(fn($t) => $t === null ? null : (bool) preg_match('/^[0-9a-f]{32}$/', $t), $tokens)),
    ' distinct ', count(array_unique(array_filter($tokens))), "\n";
echo 'remaining within ttl ', json_encode($s[0]->remaining() > 0 && $s[0]->remaining() <= 5000), ', not held ', $s[3]->remaining(), "\n";
echo 'isAcquired ', json_encode([$s[0]->isAcquired(), $s[3]->isAcquired()]), "\n";
echo 'release ', json_encode([$s[1]->release(), $s[1]->release(), $s[3]->release()]), ' token after ', json_encode($s[1]->token()), "\n";
echo 'available ', $s[3]->available(), ', acquire ', json_encode($s[3]->acquire()), ', available ', $s[3]->available(), "\n";
$t = $s[0]->token();
echo 'acquire again renews, same token ', json_encode([$s[0]->acquire(), $s[0]->token() === $t]), ', available ', $s[0]->available(), "\n";
echo 'extend ', json_encode([$s[0]->extend(), $s[0]->extend(20000), $s[0]->remaining() > 5000, $s[1]->extend()]), "\n";
foreach ($s as $x) {
    $x->release();
}
echo 'keys left ', rl_admin()->cmd('EXISTS', 'rltest:sem_basic:pool:redislock-semaphore'), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_basic:');
?>
--EXPECT--
[true,true,true,false]
available 0
tokens [true,true,true,null] distinct 3
remaining within ttl true, not held 0
isAcquired [true,false]
release [true,false,false] token after null
available 1, acquire true, available 0
acquire again renews, same token [true,true], available 0
extend [true,true,true,false]
keys left 0
