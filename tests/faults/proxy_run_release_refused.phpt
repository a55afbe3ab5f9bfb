--TEST--
Proxy: run() whose release is refused throws (or lets $fn's exception through), and the token goes as a leftover ahead of the next command to that server, long before its lease ends
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_run_release_refused:';
$key = $p . 'job';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 2000, 'ttl' => 30000];
$l = new RedisLock('job', $opts);
$other = new RedisLock('other', $opts);

foreach (['returns', 'throws'] as $how) {
    echo "\$fn $how\n";
    $token = null;
    try {
        $l->run(function () use ($l, $proxy, $how, &$token) {
            $token = $l->token();
            /* The release script that follows never reaches the server. */
            $proxy->fault('error ERR injected');
            if ($how === 'throws') {
                throw new DomainException('from $fn');
            }
            return 'done';
        });
        echo "run() returned\n";
    } catch (Exception $e) {
        echo get_class($e), ': ', str_replace((string) $proxy->port, 'PORT', $e->getMessage()), "\n";
    }
    $proxy->pass();
    /* Still there, 30 s lease; nobody holds it any more. */
    var_dump(rl_admin()->cmd('GET', $key) === $token, $l->token());
    /* The next command of this process to that server takes it along. */
    var_dump($other->acquire(), $other->release());
    var_dump(rl_admin()->cmd('EXISTS', $key));
}
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_run_release_refused:');
?>
--EXPECT--
$fn returns
RedisLock\ReleaseException: the work is done, but releasing the lock failed: release failed: 127.0.0.1:PORT replied: ERR injected
bool(true)
NULL
bool(true)
bool(true)
int(0)
$fn throws
DomainException: from $fn
bool(true)
NULL
bool(true)
bool(true)
int(0)
