--TEST--
Symfony Lock store: the bridge's phpunit suite (the store contract Symfony checks on its stores, LockFactory's contract, keys across processes; from Symfony 7.4 on, Symfony's own store tests too)
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
bridge_phpunit('symfony');
?>
--CLEAN--
<?php
require __DIR__ . '/phpunit.inc';
bridge_clean();
?>
--EXPECTF--
OK (%d tests, %d assertions)
