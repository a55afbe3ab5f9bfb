--TEST--
phpinfo() masks every password of redislock.servers from the parsed list, also a unix:// password containing "/" or "@"
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
redislock.servers="unix://rluser:se/cr%40et@/tmp/rltest-phpinfo.sock?db=3,redis://:Pa55%2FQz9v@127.0.0.1:6390/2"
--FILE--
<?php
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
foreach (explode("\n", $info) as $line) {
    if (str_starts_with($line, 'redislock.servers')) {
        echo $line, "\n";
    }
}
foreach (['se/cr', 'cr@et', 'cr%40et', 'Pa55', 'Qz9v'] as $secret) {
    echo $secret, ': ', str_contains($info, $secret) ? 'shown' : 'masked', "\n";
}
?>
--EXPECT--
redislock.servers => unix://rluser:***@/tmp/rltest-phpinfo.sock?db=3,redis://:***@127.0.0.1:6390/2 => unix://rluser:***@/tmp/rltest-phpinfo.sock?db=3,redis://:***@127.0.0.1:6390/2
se/cr: masked
cr@et: masked
cr%40et: masked
Pa55: masked
Qz9v: masked
