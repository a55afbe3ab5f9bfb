--TEST--
Proxy: a request that ends holding 20 locks on a server that has gone silent ends after about one read_timeout, not one per lock
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_request_end_silent_many_locks:';
$proxy = new RLProxy();

/* A request (a php process of its own) that takes 20 locks, keeps them, and
 * ends (auto_release) when told to. */
const CHILD = <<<'PHP'
[, $dsn, $prefix] = $argv;
$locks = [];
for ($i = 0; $i < 20; $i++) {
    $locks[$i] = new RedisLock("job$i", ['servers' => $dsn, 'prefix' => $prefix, 'read_timeout' => 500,
        'connect_timeout' => 500, 'ttl' => 30000]);
    if (!$locks[$i]->acquire()) {
        echo "lock $i not acquired\n";
        exit(3);
    }
}
echo "holding 20 locks\n";
fgets(STDIN);
PHP;

$child = rl_proxy_child(CHILD, [$proxy->dsn(), $p]);
echo rl_proxy_read_line($child['out'], 20000), "\n";
$proxy->fault('silent');
$t0 = hrtime(true);
fwrite($child['in'], "end\n");
$code = rl_proxy_reap($child, 30000);
$ms = rl_proxy_ms($t0);
var_dump($code);
echo $ms < 1500 ? "the request ended within 3 read timeouts\n" : "the request took $ms ms to end\n";
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_request_end_silent_many_locks:');
?>
--EXPECT--
holding 20 locks
int(0)
the request ended within 3 read timeouts
