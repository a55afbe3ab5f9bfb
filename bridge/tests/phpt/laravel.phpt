--TEST--
Laravel lock provider: the bridge's phpunit suite (get, block, refresh, expiry, owners, restoreLock across processes, forceRelease, funnels, Cache::lock() and a unique job through the repository)
--EXTENSIONS--
redislock
dom
mbstring
tokenizer
xml
xmlwriter
--SKIPIF--
<?php
require __DIR__ . '/../../../tests/skipif.inc';
require __DIR__ . '/phpunit.inc';
bridge_skip_unless_installed();
?>
--FILE--
<?php
require __DIR__ . '/phpunit.inc';
bridge_phpunit('laravel');
?>
--CLEAN--
<?php
require __DIR__ . '/phpunit.inc';
bridge_clean();
?>
--EXPECTF--
OK (%d tests, %d assertions)
