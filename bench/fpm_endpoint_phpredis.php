<?php
/*
 * bench/fpm_endpoint_phpredis.php: bench/fpm_endpoint.php written by hand
 * with phpredis over a persistent connection (pconnect), doing what the
 * extension does on the wire:
 *
 *   SET key token NX PX ttl            (token: 16 random bytes, hex)
 *   EVALSHA <lua/release.lua> <its keys> token   (EVAL after NOSCRIPT)
 *
 * bench/fpm.sh passes the server and the script's SHA1 and key count
 * through the pool's environment.
 */
$r = new Redis();
$r->pconnect('127.0.0.1', (int) getenv('BENCH_REDIS_PORT'));
$key = 'bench:fpm:phpredis:item:' . random_int(1, 10000);
$token = bin2hex(random_bytes(16));
if ($r->set($key, $token, ['nx', 'px' => 10000]) !== true) {
    http_response_code(409);
    exit("busy\n");
}
$work = hash('crc32b', $token);
$keys = array_slice([$key, "$key:redislock-wait", "$key:redislock-wake"], 0, (int) getenv('BENCH_RELEASE_KEYS'));
$released = $r->evalSha(getenv('BENCH_RELEASE_SHA'), [...$keys, $token], count($keys));
if ($released === false && str_starts_with((string) $r->getLastError(), 'NOSCRIPT')) {
    $r->clearLastError();
    $released = $r->eval(file_get_contents(__DIR__ . '/../lua/release.lua'), [...$keys, $token], count($keys));
}
echo $released === 1 ? "ok\n" : "lost\n";
