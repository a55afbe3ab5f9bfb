--TEST--
Keepalive under php-fpm: a Semaphore hold kept past its request (auto_release off) is renewed no more once the request ends, so its permits come back at its ttl while the worker lives
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../fpm.inc';
if ($why = rl_fpm_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../fpm.inc';
$p = 'rltest:keepalive_semaphore_request_end:';
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 2000 : 1000;
$fpm = new RLFpm(1, ['redislock.servers' => RL_DSN, 'redislock.prefix' => $p]);
$fpm->script('hold.php', <<<PHP
<?php
\$s = new RedisLock\\Semaphore('pool', 2, ['ttl' => $ttl, 'keepalive' => true, 'auto_release' => false]);
\$ok = \$s->acquire();
usleep((int) \$_GET['sleep'] * 1000);
echo json_encode(['held' => \$ok && \$s->isAcquired(), 'available' => \$s->available()]);
PHP);

/* Renewed while its request lasts (three ttls). */
echo 'long request: ', $fpm->request('hold.php', ['sleep' => (string) (3 * $ttl)]), "\n";
$pid = $fpm->workers()[0];
/* Its request over: no renewal, so the hold runs out at its ttl (a renewal
 * would keep it for ever: the loop would end at its bound). */
$probe = new RedisLock\Semaphore('pool', 2, ['servers' => RL_DSN, 'prefix' => $p]);
for ($i = 0; $i < 1000 && $probe->available() < 2; $i++) {
    usleep(10000);
}
echo 'then available ', $probe->available(), ' while the worker lives: ', var_export(rl_fpm_alive($pid), true), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:keepalive_semaphore_request_end:');
?>
--EXPECT--
long request: {"held":true,"available":1}
then available 2 while the worker lives: true
