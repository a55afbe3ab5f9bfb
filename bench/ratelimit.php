<?php
/*
 * bench/ratelimit.php: RedisLock\RateLimiter::consume() calls per second on
 * one local redis-server, every call allowed (a limit no run can reach),
 * against:
 *
 *   phpredis evalSha     the very same script (lua/ratelimit_<policy>.lua) with
 *                        the same keys and arguments, by phpredis over a
 *                        persistent connection: the target (>= 0.95 of it)
 *   Laravel              Illuminate\Cache\RateLimiter, tooManyAttempts() + hit()
 *                        as its ThrottleRequests middleware does, over a cache
 *                        Repository on a RedisStore (phpredis connection)
 *   Symfony              Symfony\Component\RateLimiter fixed_window limiter,
 *                        consume(1), on a CacheStorage over symfony/cache's
 *                        RedisAdapter (phpredis), without a lock (its default)
 *
 * Laravel and Symfony are context, not targets: they do several round trips
 * per call, and without a lock neither is atomic across processes.
 * Run by bench/run.sh ratelimit, which installs the Debian packages they
 * come from (php-laravel-framework, php-symfony-rate-limiter,
 * php-symfony-cache), starts the server and loads both extensions.
 */
require __DIR__ . '/bench.inc';

[$port] = bench_ports(1);
$rounds = bench_rounds();
$ms = bench_round_ms();
$limit = 2000000000;
$window = 3600000;
$opts = ['servers' => "redis://127.0.0.1:$port", 'prefix' => 'bench:rate:'];

$r = new Redis();
$r->pconnect('127.0.0.1', $port);

$variants = [];
$baselines = [];
foreach (['gcra', 'fixed_window', 'sliding_window'] as $policy) {
    $limiter = new RedisLock\RateLimiter("ext-$policy", $limit, $window, $opts + ['policy' => $policy]);
    $sha = $r->script('load', file_get_contents(__DIR__ . "/../lua/ratelimit_$policy.lua"));
    $key = "bench:rate:phpredis-$policy:redislock-$policy";
    $variants["RateLimiter $policy"] = fn () => $limiter->consume();
    $variants["phpredis evalSha $policy"] = fn () => $r->evalSha($sha, [$key, $limit, $window, 1], 1)[0] === 1;
    $baselines[$policy] = ["RateLimiter $policy", "phpredis evalSha $policy"];
}
/* The sliding window keeps one member per permit: start it empty each run. */
register_shutdown_function(fn () => $r->del('bench:rate:ext-sliding_window:redislock-sliding_window',
                                            'bench:rate:phpredis-sliding_window:redislock-sliding_window'));

foreach (['Illuminate/Cache', 'Illuminate/Redis', 'Symfony/Component/RateLimiter', 'Symfony/Component/Cache'] as $pkg) {
    $autoload = "/usr/share/php/$pkg/autoload.php";
    if (is_file($autoload)) {
        require_once $autoload;
    }
}
if (class_exists(Illuminate\Cache\RateLimiter::class) && class_exists(Illuminate\Redis\RedisManager::class)) {
    $redis = new Illuminate\Redis\RedisManager(null, 'phpredis', [
        'default' => ['host' => '127.0.0.1', 'port' => $port, 'database' => 0, 'persistent' => true],
    ]);
    $store = new Illuminate\Cache\RedisStore($redis, 'bench:rate:laravel:');
    $laravel = new Illuminate\Cache\RateLimiter(new Illuminate\Cache\Repository($store));
    $variants['Laravel RateLimiter'] = function () use ($laravel, $limit) {
        if ($laravel->tooManyAttempts('api', $limit)) {
            return false;
        }
        $laravel->hit('api', 3600);
        return true;
    };
} else {
    echo "Laravel: not installed (php-laravel-framework), left out\n";
}
if (class_exists(Symfony\Component\RateLimiter\RateLimiterFactory::class)
    && class_exists(Symfony\Component\Cache\Adapter\RedisAdapter::class)) {
    $pool = new Symfony\Component\Cache\Adapter\RedisAdapter($r, 'bench-rate-symfony');
    $factory = new Symfony\Component\RateLimiter\RateLimiterFactory(
        ['id' => 'api', 'policy' => 'fixed_window', 'limit' => $limit, 'interval' => '1 hour'],
        new Symfony\Component\RateLimiter\Storage\CacheStorage($pool)
    );
    $symfony = $factory->create('api');
    $variants['Symfony fixed_window'] = fn () => $symfony->consume(1)->isAccepted();
} else {
    echo "Symfony: not installed (php-symfony-rate-limiter, php-symfony-cache), left out\n";
}

printf("single server (127.0.0.1:%d), consume() calls/s (every call allowed), %d rounds of %d ms each, interleaved in %d ms turns\n\n",
    $port, $rounds, $ms, bench_slice_ms());
$results = bench_run($variants, $rounds, $ms);
bench_table($results);

$med = array_map('bench_median', $results);
echo "\nspread (max - min) / median of each row:\n";
foreach ($results as $name => $values) {
    printf("  %-44s %5.1f%%\n", $name, 100 * (max($values) - min($values)) / $med[$name]);
}
echo "\nratios of medians:\n";
foreach ($baselines as $policy => [$ext, $base]) {
    bench_ratio("RateLimiter / phpredis evalSha, $policy", $med[$ext] / $med[$base], 0.95);
    $byRound = array_map(fn ($a, $b) => $a / $b, $results[$ext], $results[$base]);
    printf("    round by round: %.2f to %.2f\n", min($byRound), max($byRound));
}
foreach (['Laravel RateLimiter', 'Symfony fixed_window'] as $other) {
    if (isset($med[$other])) {
        bench_ratio("RateLimiter gcra / $other", $med['RateLimiter gcra'] / $med[$other]);
    }
}
/* Round trips: 1000 more calls of each policy, counted by RedisLock::stats(). */
foreach (['gcra', 'fixed_window', 'sliding_window'] as $policy) {
    $limiter = new RedisLock\RateLimiter("ext-$policy", $limit, $window, $opts + ['policy' => $policy]);
    $c = RedisLock::stats()['commands'];
    for ($i = 0; $i < 1000; $i++) {
        $limiter->consume();
    }
    printf("\nRateLimiter %s: %.3f commands (round trips) per consume()", $policy, (RedisLock::stats()['commands'] - $c) / 1000);
}
echo "\n";
