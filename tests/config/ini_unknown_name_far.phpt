--TEST--
An unknown redislock.* INI name far from every known one is reported without a suggestion
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
redislock.colour_scheme=blue
redislock.x=1
--FILE--
<?php
echo "running\n";
?>
--EXPECTF--

Warning: redislock: unknown INI setting "redislock.colour_scheme" in Unknown on line 0

Warning: redislock: unknown INI setting "redislock.x" in Unknown on line 0
running
