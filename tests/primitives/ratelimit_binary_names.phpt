--TEST--
RateLimiter and Atomic: binary-safe names, keys passed in KEYS only (the script cache stays at the extension's scripts), NOSCRIPT recovered
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = "rltest:ratelimit_binary_names:";
$opts = ['servers' => RL_DSN, 'prefix' => $p];
$names = ["a\0b", "a\0c", "a", "\xff\xfe", "sp ace\r\n"];
rl_admin()->cmd('SCRIPT', 'FLUSH');
$before = RedisLock::stats();
foreach (['gcra', 'fixed_window', 'sliding_window'] as $policy) {
    foreach ($names as $i => $name) {
        $l = new RedisLock\RateLimiter($name, 5, 60000, $opts + ['policy' => $policy]);
        $l->consume($i + 1);
    }
    foreach ($names as $i => $name) {
        $l = new RedisLock\RateLimiter($name, 5, 60000, $opts + ['policy' => $policy]);
        $l->consume();
        echo $l->remaining();
    }
    echo " $policy\n";
}
foreach ($names as $name) {
    $a = new RedisLock\Atomic($name, $opts);
    echo var_export($a->compareAndSet(null, $name . "\0v"), true), ' ',
        var_export($a->compareAndSet($name . "\0w", 'x'), true), ' ', bin2hex($a->get()), ' ',
        bin2hex(rl_admin()->cmd('GET', $p . $name)), "\n";
}
$after = RedisLock::stats();
/* The three policies' scripts and the compare-and-set, each loaded again once after the flush. */
var_dump(rl_admin()->info('memory', 'number_of_cached_scripts'));
var_dump($after['script_reloads'] - $before['script_reloads']);
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:ratelimit_binary_names:');
?>
--EXPECT--
32100 gcra
32100 fixed_window
32100 sliding_window
true false 6100620076 6100620076
true false 6100630076 6100630076
true false 610076 610076
true false fffe0076 fffe0076
true false 7370206163650d0a0076 7370206163650d0a0076
string(1) "4"
int(4)
