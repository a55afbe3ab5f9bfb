--TEST--
Proxy: the token of an acquire() that was never answered does not outlive the request: after the request ends (no other operation in between) the key is gone, long before its ttl
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_silent_acquire_request_end:';
$key = $p . 'job';
$proxy = new RLProxy();

/* A request (a php process of its own) whose acquire() is never answered;
 * it waits for a line on stdin before it ends. */
const CHILD = <<<'PHP'
[, $dsn, $prefix] = $argv;
$l = new RedisLock('job', ['servers' => $dsn, 'prefix' => $prefix, 'read_timeout' => 500,
    'connect_timeout' => 500, 'ttl' => 30000]);
try {
    $r = $l->acquire(0);
    echo 'acquire returned ', var_export($r, true), "\n";
} catch (RedisLockException $e) {
    echo "acquire threw\n";
}
fgets(STDIN);
PHP;

$proxy->fault('silent');
$child = rl_proxy_child(CHILD, [$proxy->dsn(), $p]);
echo rl_proxy_read_line($child['out'], 20000), "\n";
/* The server ran the SET NX; what else the attempt sent is its business. */
$proxy->pass();
fwrite($child['in'], "end\n");
var_dump(rl_proxy_reap($child));

$gone = false;
for ($i = 0; $i < 100 && !$gone; $i++) {
    $gone = rl_admin()->cmd('EXISTS', $key) === 0;
    if (!$gone) {
        usleep(50000);
    }
}
echo $gone ? "the attempt's token is gone\n" : 'still there, pttl ' . rl_admin()->cmd('PTTL', $key) . "\n";
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_silent_acquire_request_end:');
?>
--EXPECT--
acquire threw
int(0)
the attempt's token is gone
