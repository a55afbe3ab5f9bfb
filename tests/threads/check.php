<?php
/* The check of the thread harness, run once every thread is done: the sums
 * that work.php made on all threads are exact. RL_THREADS, RL_REQUESTS and
 * RL_ITER say how many rounds there were. */
declare(strict_types=1);

$run = 'thr' . getmypid() . ':';
$n = (int) getenv('RL_THREADS') * (int) getenv('RL_REQUESTS') * (int) (getenv('RL_ITER') ?: 4);
$store = ['servers' => getenv('RL_TCP')];
$get = fn (string $key): int => (int) (new RedisLock\Atomic($run . $key, $store))->get();
$expect = [];
foreach (['tcp', 'fair', 'keepalive', 'tls', 'quorum'] as $kind) {
    $expect["counter:$kind"] = $n;
    $expect["done:$kind"] = $n;
}
$expect += ['asked' => $n, 'admitted' => min(10, $n), 'sum' => 3 * $n, 'updated' => $n];
$wrong = [];
foreach ($expect as $key => $want) {
    if (($got = $get($key)) !== $want) {
        $wrong[] = "$key: $got, not $want";
    }
}
if ($wrong) {
    file_put_contents('php://stderr', "check: " . implode("; ", $wrong) . "\n");
    exit(1);
}
echo "check: $n rounds of each part, all sums exact\n";
