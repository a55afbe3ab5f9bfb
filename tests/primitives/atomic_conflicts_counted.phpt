--TEST--
Atomic::update() retries after another writer's change, counting the conflict and the retry in RedisLock::stats(); out of retries it throws ConflictException having changed nothing
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = 'rltest:atomic_conflicts_counted:';
$a = new RedisLock\Atomic('v', ['servers' => RL_DSN, 'prefix' => $p]);
function counters(): array
{
    static $last = [0, 0];
    $s = RedisLock::stats();
    $d = [$s['atomic_conflicts'] - $last[0], $s['atomic_retries'] - $last[1]];
    $last = [$s['atomic_conflicts'], $s['atomic_retries']];
    return $d;
}
counters();
/* Another writer changes the value while $fn runs, the first two times. */
$calls = 0;
$result = $a->update(function (?string $old) use (&$calls, $p) {
    $calls++;
    if ($calls <= 2) {
        rl_admin()->cmd('SET', $p . 'v', "other$calls");
    }
    return "$old+mine";
});
echo "calls $calls, result $result, value ", rl_admin()->cmd('GET', $p . 'v'), "\n";
echo 'conflicts, retries: ', implode(', ', counters()), "\n";

/* A value that changes every time: 1 + 3 attempts, then ConflictException. */
$calls = 0;
try {
    $a->update(function (?string $old) use (&$calls, $p) {
        $calls++;
        rl_admin()->cmd('SET', $p . 'v', "moved$calls");
        return 'never written';
    }, 3);
} catch (RedisLock\ConflictException $e) {
    echo get_class($e), ' ', $e->getCode(), ': ', $e->getMessage(), "\n";
}
echo "calls $calls, value ", rl_admin()->cmd('GET', $p . 'v'), "\n";
echo 'conflicts, retries: ', implode(', ', counters()), "\n";

/* retries 0: one attempt. */
$calls = 0;
try {
    $a->update(function () use (&$calls, $p) {
        $calls++;
        rl_admin()->cmd('DEL', $p . 'v');
        return 'x';
    }, 0);
} catch (RedisLock\ConflictException $e) {
    echo "ConflictException after $calls call\n";
}
echo 'conflicts, retries: ', implode(', ', counters()), "\n";
/* A direct compareAndSet that finds another value counts as a conflict too. */
var_dump($a->compareAndSet('not it', 'y'));
echo 'conflicts, retries: ', implode(', ', counters()), "\n";
/* $fn's own exception comes out as it is, nothing written. */
try {
    $a->update(fn () => throw new DomainException('no'));
} catch (DomainException $e) {
    echo 'DomainException: ', $e->getMessage(), ', value ', var_export($a->get(), true), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:atomic_conflicts_counted:');
?>
--EXPECT--
calls 3, result other2+mine, value other2+mine
conflicts, retries: 2, 2
RedisLock\ConflictException 4: update: the value changed before each of 4 writes
calls 4, value moved4
conflicts, retries: 4, 3
ConflictException after 1 call
conflicts, retries: 1, 0
bool(false)
conflicts, retries: 1, 0
DomainException: no, value NULL
