--TEST--
run() inside run() on the same object is an Error, and the outer hold is kept until the outer run() ends
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$a = rl_admin();
$p = 'rltest:run_nested:';
$l = new RedisLock('job', ['servers' => RL_DSN, 'prefix' => $p]);
$other = new RedisLock('other', ['servers' => RL_DSN, 'prefix' => $p]);

$r = $l->run(function () use ($l, $other, $a, $p) {
    try {
        $l->run(fn() => 'inner');
        echo "inner run() ran\n";
    } catch (Error $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
    /* Still ours, on the server too. */
    var_dump($l->isAcquired(), $a->cmd('GET', $p . 'job') === $l->token());
    /* Another object may run() inside. */
    var_dump($other->run(fn() => 'other'));
    return 'outer';
});
var_dump($r, $a->cmd('EXISTS', $p . 'job'));
/* Once the outer run() is over, run() works again. */
var_dump($l->run(fn() => 'again'));
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:run_nested:');
?>
--EXPECT--
Error: RedisLock::run() is already running on this object
bool(true)
bool(true)
string(5) "other"
string(5) "outer"
int(0)
string(5) "again"
