--TEST--
rediss-sentinel://: Sentinels and data nodes over TLS: the master is found through the Sentinels' TLS ports and used over TLS, verified against tls_ca, also after SENTINEL FAILOVER
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../tls.inc';
require __DIR__ . '/../sentinel.inc';
$s = new RLSentinels(rl_tls_certs());
ini_set('redislock.tls_ca', rl_tls_certs() . '/ca.pem');
/* The master is the one a majority of the Sentinels name: under valgrind
 * their three TLS handshakes can each take over a second. */
ini_set('redislock.connect_timeout', '5000');

$l = new RedisLock('tls:sentinel', ['servers' => $s->dsn()]);
var_dump($l->acquire());
var_dump($s->node($s->masterPort())->cmd('GET', 'tls:sentinel') === $l->token());
var_dump($l->release());

$new = $s->failover();
$on_new = false;
for ($i = 0; $i < 100 && !$on_new; $i++) {
    try {
        $l = new RedisLock('tls:sentinel2', ['servers' => $s->dsn()]);
        if ($l->acquire()) {
            $on_new = $s->node($new)->cmd('GET', 'tls:sentinel2') === $l->token();
            $l->release();
        }
    } catch (RedisLock\ConnectionException $e) {
    }
    if (!$on_new) {
        usleep(50000);
    }
}
var_dump($on_new);

/* The same Sentinels without TLS settings that trust them: refused. */
ini_set('redislock.tls_ca', rl_tls_certs() . '/wrongca.pem');
try {
    (new RedisLock('tls:sentinel3', ['servers' => $s->dsn()]))->acquire();
} catch (RedisLock\ConnectionException $e) {
    echo preg_replace('/127\.0\.0\.1:\d+/', 'ADDR', $e->getMessage()), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
acquire failed: no Sentinel named a master for rlmaster: cannot connect to ADDR: TLS certificate verify failed: self-signed certificate in certificate chain
