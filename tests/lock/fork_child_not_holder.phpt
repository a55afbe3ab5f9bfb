--TEST--
Fork: a held RedisLock inherited by a forked child says, in every accessor, that the child does not hold it (token(), remaining() and fence() as isAcquired()), and the parent's hold is untouched
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:fork_child_not_holder:';
$l = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 30000, 'fencing' => true]);
var_dump($l->acquire());
$token = $l->token();
$fence = $l->fence();
$codes = rl_fork(1, function () use ($l, $p): int {
    $seen = [
        'token' => $l->token(),
        'remaining' => $l->remaining(),
        'fence' => $l->fence(),
        'isAcquired' => $l->isAcquired(),
        'extend' => $l->extend(),
        'release' => $l->release(),
    ];
    (new RLClient())->cmd('SET', $p . 'child', json_encode($seen));
    return 0;
});
var_dump($codes);
echo 'child saw: ', rl_admin()->cmd('GET', $p . 'child'), "\n";
/* The parent still holds, with its token on the server. */
var_dump($l->isAcquired(), $l->token() === $token, $l->fence() === $fence, $l->remaining() > 25000);
var_dump(rl_admin()->cmd('GET', $p . 'job') === $token);
var_dump($l->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fork_child_not_holder:');
?>
--EXPECT--
bool(true)
array(1) {
  [0]=>
  int(0)
}
child saw: {"token":null,"remaining":0,"fence":null,"isAcquired":false,"extend":false,"release":false}
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
