--TEST--
Locks on the same server share one persistent connection; persistent => false locks share one connection for the request
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:connection_reused_across_objects:';

/* Client ids of the server's connections named for this process. */
function my_connections(): array
{
    $ids = [];
    foreach (explode("\n", trim(rl_admin()->cmd('CLIENT', 'LIST'))) as $line) {
        if (preg_match('/^id=(\d+) .* name=redislock:' . getmypid() . ' /', $line, $m)) {
            $ids[] = (int) $m[1];
        }
    }
    return $ids;
}

$connects = RedisLock::stats()['connects'];
var_dump(my_connections());

echo "persistent:\n";
$opts = ['servers' => RL_DSN, 'prefix' => $p];
$a = new RedisLock('a', $opts);
var_dump($a->acquire());
$first = my_connections();
var_dump(count($first));
$b = new RedisLock('b', $opts);
$c = new RedisLock('c', $opts + ['ttl' => 5000, 'auto_release' => false]);
var_dump($b->acquire(), $c->acquire(100), $a->extend());
var_dump($b->release(), $c->release());
unset($b, $c);
$d = new RedisLock('d', $opts);
var_dump($d->run(fn () => $d->isAcquired()));
var_dump($a->release());
var_dump(my_connections() === $first);

echo "per request:\n";
$opts['persistent'] = false;
$e = new RedisLock('e', $opts);
$f = new RedisLock('f', $opts);
var_dump($e->acquire(), $f->acquire(), $e->release(), $f->release());
$now = my_connections();
var_dump(count($now), in_array($first[0], $now, true));
$g = new RedisLock('g', $opts);
var_dump($g->acquire(), $g->release());
var_dump(my_connections() === $now);
var_dump(RedisLock::stats()['connects'] - $connects);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:connection_reused_across_objects:');
?>
--EXPECT--
array(0) {
}
persistent:
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
per request:
bool(true)
bool(true)
bool(true)
bool(true)
int(2)
bool(true)
bool(true)
bool(true)
bool(true)
int(2)
