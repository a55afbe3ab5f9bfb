--TEST--
10,000 locks with different names, ttls and waits leave only the extension's own scripts in the server's script cache
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$srv = new RLServer();
$admin = $srv->client();
$prefix = 'rltest:script_cache_bounded:';
$opts = ['servers' => $srv->dsn(), 'prefix' => $prefix];

/* The extension's scripts, as phpinfo() lists them. */
ob_start();
phpinfo(INFO_MODULES);
preg_match_all('/^[\w ]+ script SHA1 => ([0-9a-f]{40})$/m', ob_get_clean(), $m);
$shas = $m[1];
var_dump(count($shas) >= 2);

/* Every kind of call once: plain and waiting acquire (free and contended),
 * extend with and without a ttl, isAcquired, release, run. */
$a = new RedisLock('warm', $opts);
$b = new RedisLock('warm', $opts + ['ttl' => 500]);
var_dump($a->acquire(), $b->acquire(20), $a->extend(), $a->extend(1234), $a->isAcquired(), $a->release());
/* $b takes it; $a waits for its 500 ms lease to run out. */
var_dump($b->acquire(20), $a->acquire(2000), $a->release());
var_dump($a->run(fn() => 'ran', 10));
$cached = (int) $admin->info('memory', 'number_of_cached_scripts');
$ours = array_sum((array) $admin->cmd('SCRIPT', 'EXISTS', ...$shas));
var_dump($cached === $ours, $cached >= 2);

/* The same count in both modes: 10,000 cycles take about 1 s normally and
 * about 30 s under --memcheck (well within its 300 s limit). */
$n = 10000;
for ($i = 0; $i < $n; $i++) {
    $l = new RedisLock("job:$i:" . bin2hex(random_bytes(4)), $opts + ['ttl' => 1000 + $i]);
    if (!$l->acquire($i % 3 === 0 ? 1 + $i % 7 : 0) || !$l->extend(2000 + $i) || !$l->release()) {
        echo "cycle $i failed\n";
        break;
    }
}
var_dump($i);
var_dump((int) $admin->info('memory', 'number_of_cached_scripts') === $cached);
var_dump(array_sum((array) $admin->cmd('SCRIPT', 'EXISTS', ...$shas)) === $ours);
var_dump($admin->cmd('EXISTS', $prefix . 'warm'), $admin->cmd('EXISTS', $prefix . 'job:0'));
$srv->stop();
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(3) "ran"
bool(true)
bool(true)
int(10000)
bool(true)
bool(true)
int(0)
int(0)
