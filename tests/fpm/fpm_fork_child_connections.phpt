--TEST--
After pcntl_fork() the child opens its own connection, leaves the parent's connection and locks alone, and takes distinct tokens
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../fpm.inc';
$p = 'rltest:fpm_fork_child_connections:';
$opts = ['servers' => RL_DSN, 'prefix' => $p];
$admin = rl_admin();

/* The server's view of one connection: [id, last command] per connection named redislock:<pid>. */
function conns(RLClient $c, int $pid): array
{
    preg_match_all('/^id=(\d+) .*? name=redislock:' . $pid . ' .*? cmd=(\S+)/m', (string) $c->cmd('CLIENT', 'LIST'), $m);
    return array_map(null, $m[1], $m[2]);
}

$parent = new RedisLock('parent', $opts);
var_dump($parent->acquire());
$token = $parent->token();
$before = conns($admin, getmypid());
echo 'parent connections: ', count($before), "\n";
$stats = RedisLock::stats();

$codes = rl_fork(1, function () use ($parent, $opts, $p): int {
    $r = new RLClient();
    $report = fn(string $k, $v) => $r->cmd('HSET', $p . 'report', $k, json_encode($v));
    $report('pid', getmypid());
    /* The parent's lock object came along; it is not the child's to release or renew. */
    $report('inherited release', $parent->release());
    $report('inherited extend', $parent->extend());
    $own = new RedisLock('child', $opts);
    $report('own acquire', $own->acquire());
    $report('own token', $own->token());
    $report('own connection', count(conns($r, getmypid())));
    $report('own release', $own->release());
    /* Held when the child exits: released by the child's own request end. */
    $left = new RedisLock('child-left', $opts);
    $report('left acquire', $left->acquire());
    $report('left token', $left->token());
    $GLOBALS['left'] = $left;
    return 0;
});
echo 'child exit codes: ', json_encode($codes), "\n";
$child = array_map('json_decode', array_column(array_chunk((array) $admin->cmd('HGETALL', $p . 'report'), 2), 1, 0));

echo 'child: inherited release ', var_export($child['inherited release'], true), ', inherited extend ',
    var_export($child['inherited extend'], true), "\n";
echo 'child: own acquire ', var_export($child['own acquire'], true), ', release ', var_export($child['own release'], true),
    ', over its own connection redislock:<child pid>: ', $child['own connection'], "\n";
echo 'child: lock left at exit ', var_export($child['left acquire'], true), ', released by its exit: ',
    var_export($admin->cmd('EXISTS', $p . 'child-left') === 0, true), "\n";
echo 'child connection gone: ', var_export(rl_fpm_until(fn() => conns($admin, $child['pid']) === [], 3000), true), "\n";

echo 'parent lock still held with its token: ', var_export($admin->cmd('GET', $p . 'parent') === $token, true), "\n";
echo 'parent connection untouched (same id, same last command): ', var_export(conns($admin, getmypid()) === $before, true), "\n";
var_dump($parent->isAcquired());
var_dump($parent->release());
var_dump($parent->acquire());
$tokens = [$token, $parent->token(), $child['own token'], $child['left token']];
var_dump($parent->release());
echo 'same parent connection after: ', var_export(array_column(conns($admin, getmypid()), 0) === array_column($before, 0), true), "\n";
$after = RedisLock::stats();
echo 'parent connects +', $after['connects'] - $stats['connects'], ', reconnects +', $after['reconnects'] - $stats['reconnects'], "\n";
echo 'tokens distinct: ', var_export(count(array_unique($tokens)) === 4 && count(preg_grep('/^[0-9a-f]{32}$/D', $tokens)) === 4, true), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:fpm_fork_child_connections:');
?>
--EXPECT--
bool(true)
parent connections: 1
child exit codes: [0]
child: inherited release false, inherited extend false
child: own acquire true, release true, over its own connection redislock:<child pid>: 1
child: lock left at exit true, released by its exit: true
child connection gone: true
parent lock still held with its token: true
parent connection untouched (same id, same last command): true
bool(true)
bool(true)
bool(true)
bool(true)
same parent connection after: true
parent connects +0, reconnects +0
tokens distinct: true
