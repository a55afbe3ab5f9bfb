--TEST--
RedisLock\Lock declares every method the documentation calls on a lock (extend and remaining included), so a class of the application's own (a test double) can implement it and stand in for RedisLock, which stays final
--EXTENSIONS--
redislock
--FILE--
<?php
$i = new ReflectionClass(RedisLock\Lock::class);
foreach ($i->getMethods() as $m) {
    $params = array_map(function (ReflectionParameter $p) {
        return $p->getType() . ' $' . $p->getName()
            . ($p->isDefaultValueAvailable() ? ' = ' . var_export($p->getDefaultValue(), true) : '');
    }, $m->getParameters());
    echo $m->getName(), '(', implode(', ', $params), '): ', $m->getReturnType(), "\n";
}
var_dump((new ReflectionClass(RedisLock::class))->isFinal());
var_dump(array_diff(array_map(fn($m) => $m->getName(), $i->getMethods()),
                    get_class_methods(RedisLock::class)));

/* What application code typed against the interface does (docs/locks.md). */
function process(RedisLock\Lock $lock, array $items): string
{
    if (!$lock->acquire(5000)) {
        return 'busy';
    }
    try {
        foreach ($items as $item) {
            if ($lock->remaining() < 5000 && !$lock->extend()) {
                return "lost before $item";
            }
        }
        return 'done with token ' . $lock->token();
    } finally {
        $lock->release();
    }
}

/* A test double written by hand, as a mocking library would generate it. */
$double = new class implements RedisLock\Lock {
    public array $calls = [];
    public int $left = 6000;
    public function acquire(int $waitMs = 0): bool { $this->calls[] = "acquire($waitMs)"; return true; }
    public function release(): bool { $this->calls[] = 'release'; return true; }
    public function extend(?int $ttlMs = null): bool { $this->calls[] = 'extend'; return $this->left > 0; }
    public function isAcquired(): bool { return true; }
    public function remaining(): int { $this->left -= 2000; $this->calls[] = 'remaining'; return $this->left; }
    public function token(): ?string { return 'T1'; }
    public function fence(): ?int { return null; }
    public function run(callable $fn, int $waitMs = 0): mixed { return $fn(); }
};
echo process($double, ['a', 'b']), "\n";
echo implode(' ', $double->calls), "\n";
$double->calls = [];
echo process($double, ['c', 'd']), "\n";
echo implode(' ', $double->calls), "\n";
?>
--EXPECT--
acquire(int $waitMs = 0): bool
release(): bool
extend(?int $ttlMs = NULL): bool
isAcquired(): bool
remaining(): int
token(): ?string
fence(): ?int
run(callable $fn, int $waitMs = 0): mixed
bool(true)
array(0) {
}
done with token T1
acquire(5000) remaining extend remaining extend release
lost before c
acquire(5000) remaining extend release
