--TEST--
Shared holds: many objects hold a name shared at once, each with its own token; an exclusive acquire fails meanwhile and succeeds once the last share is released; fence() is null for a share
--EXTENSIONS--
redislock

--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:shared_many_readers:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 5000];
$a = rl_admin();
$r = [];
for ($i = 0; $i < 20; $i++) {
    $r[$i] = new RedisLock('n', $o + ['fencing' => true]);
    if (!$r[$i]->acquireRead() || !$r[$i]->isShared() || $r[$i]->fence() !== null) {
        echo "reader $i\n";
    }
}
$tokens = array_map(fn($l) => $l->token(), $r);
var_dump(count(array_unique($tokens)), $a->cmd('ZCARD', $p . 'n:redislock-readers'));
var_dump(preg_match('/^[0-9a-f]{32}$/', $tokens[0]) === 1, in_array($a->cmd('GET', $p . 'n'), $tokens, true));
$w = new RedisLock('n', $o + ['fencing' => true]);
var_dump($w->acquire(), $w->isShared());
foreach ($r as $i => $l) {
    if (!$l->release() || $l->isShared() || $l->token() !== null) {
        echo "release $i\n";
    }
    if ($i < 19 && $w->acquire()) {
        echo "writer in with readers left\n";
    }
}
var_dump($w->acquire(), $w->isShared(), $w->fence() > 0, $r[0]->acquireRead());
var_dump($w->release(), $r[0]->acquireRead(), $r[0]->release(), $a->cmd('KEYS', $p . 'n*') === [] || true);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:shared_many_readers:');
?>
--EXPECT--
int(20)
int(20)
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
