--TEST--
Proxy: a release() answered by an error reply (nothing deleted) keeps the hold: it throws, and a later release() deletes the key and returns true
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../proxy.inc';
$p = 'rltest:proxy_error_reply_release_keeps_hold:';
$key = $p . 'job';
$proxy = new RLProxy();
$opts = ['servers' => $proxy->dsn(), 'prefix' => $p, 'read_timeout' => 2000, 'ttl' => 30000];

$l = new RedisLock('job', $opts);
var_dump($l->acquire());
$token = $l->token();

/* The release script never reaches the server: the proxy answers it. */
$proxy->fault('error ERR injected');
rl_proxy_try('release', fn() => $l->release(), 'ERR injected', $proxy->port);
var_dump(rl_admin()->cmd('GET', $key) === $token);

$proxy->pass();
echo 'second release: ', var_export($l->release(), true), "\n";
var_dump(rl_admin()->cmd('EXISTS', $key));
$proxy->stop();
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:proxy_error_reply_release_keeps_hold:');
?>
--EXPECT--
bool(true)
release: threw, mentions 'ERR injected'
bool(true)
second release: true
int(0)
