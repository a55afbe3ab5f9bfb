<?php
/* One request of the thread harness (tests/threads/harness.c), run on
 * several threads of one process at once, many times over: locks on shared
 * names over plain TCP, TLS and a quorum (waits that other threads'
 * releases wake), a rate limiter and atomic sums. Every count it makes is
 * checked by check.php once all threads are done. Exits 1 with a line on
 * stderr at the first thing that is wrong. Servers from the environment:
 * RL_TCP, RL_TLS (with RL_TLS_CA), RL_QUORUM (three DSNs); RL_ITER rounds of
 * each part per request. */
declare(strict_types=1);

function fail(string $why): never
{
    file_put_contents('php://stderr', "work: $why\n");
    exit(1);
}

$run = 'thr' . getmypid() . ':';
$iter = (int) (getenv('RL_ITER') ?: 4);
$store = ['servers' => getenv('RL_TCP')];
/* TLS first: every thread's first connections are made at once. */
$kinds = [
    'tls' => ['servers' => getenv('RL_TLS'), 'tls_ca' => getenv('RL_TLS_CA')],
    'tcp' => ['servers' => getenv('RL_TCP')],
    'fair' => ['servers' => getenv('RL_TCP'), 'fair' => true],
    'keepalive' => ['servers' => getenv('RL_TCP'), 'keepalive' => true, 'ttl' => 3000],
    'quorum' => ['servers' => getenv('RL_QUORUM')],
];

/* A read, a pause and a write under the lock: another holder at once would
 * make the compare-and-set fail, and the sum come short. */
foreach ($kinds as $kind => $options) {
    $counter = new RedisLock\Atomic($run . "counter:$kind", $store);
    $done = new RedisLock\Atomic($run . "done:$kind", $store);
    for ($i = 0; $i < $iter; $i++) {
        $lock = new RedisLock($run . "lock:$kind", $options + ['ttl' => 10000]);
        if (!$lock->acquire(30000)) {
            fail("$kind: no lock within 30 s");
        }
        $v = $counter->get();
        usleep(300);
        if (!$counter->compareAndSet($v, (string) ((int) $v + 1))) {
            fail("$kind: the counter changed while the lock was held");
        }
        if (!$lock->release()) {
            fail("$kind: the release found the lock gone");
        }
        $done->increment();
    }
}

/* A rate limiter that admits 10 in all. */
$limiter = new RedisLock\RateLimiter($run . 'limiter', 10, 600000, $store + ['policy' => 'fixed_window']);
$admitted = new RedisLock\Atomic($run . 'admitted', $store);
$asked = new RedisLock\Atomic($run . 'asked', $store);
for ($i = 0; $i < $iter; $i++) {
    if ($limiter->consume()) {
        $admitted->increment();
    }
    $asked->increment();
}

/* Sums: increment() and update() (read, compute, compare-and-set). */
$sum = new RedisLock\Atomic($run . 'sum', $store);
$updated = new RedisLock\Atomic($run . 'updated', $store);
for ($i = 0; $i < $iter; $i++) {
    $sum->increment(3);
    $updated->update(fn (?string $v): string => (string) ((int) $v + 1), 1000);
}
