<?php
/*
 * bench/callgrind_cycle.php VARIANT N PORT: N uncontended acquire + release
 * cycles of one variant, for bench/callgrind.sh to count instructions over
 * (run once with N and once with 0; the difference over N is the client's
 * cost of one cycle, start-up and connection excluded):
 *
 *   reused     RedisLock, one object reused
 *   new        RedisLock, a new object per cycle
 *   shared     RedisLock, one object reused, acquireRead() + release()
 *   semaphore  RedisLock\Semaphore (limit 4), one object reused
 *   phpredis   SET NX PX + EVALSHA of lua/release.lua over a pconnect
 *
 * The connection is opened and the scripts loaded before the cycles, in
 * both runs, so that only the cycles differ.
 */
[, $variant, $n, $port] = $argv + [null, 'reused', '0', '6379'];
$n = (int) $n;
$ttl = 10000;
$opts = ['servers' => "redis://127.0.0.1:$port", 'prefix' => 'bench:callgrind:', 'ttl' => $ttl];

switch ($variant) {
    case 'reused':
    case 'new':
        $lock = new RedisLock('warm', $opts);
        $lock->acquire() && $lock->release();
        for ($i = 0; $i < $n; $i++) {
            if ($variant === 'new') {
                $lock = new RedisLock('cycle', $opts);
            }
            if (!$lock->acquire() || !$lock->release()) {
                exit(1);
            }
        }
        break;
    case 'shared':
        $lock = new RedisLock('warm', $opts);
        $lock->acquireRead() && $lock->release();
        for ($i = 0; $i < $n; $i++) {
            if (!$lock->acquireRead() || !$lock->release()) {
                exit(1);
            }
        }
        break;
    case 'semaphore':
        $sem = new RedisLock\Semaphore('warm', 4, $opts);
        $sem->acquire() && $sem->release();
        for ($i = 0; $i < $n; $i++) {
            if (!$sem->acquire() || !$sem->release()) {
                exit(1);
            }
        }
        break;
    case 'phpredis':
        $r = new Redis();
        $r->pconnect('127.0.0.1', (int) $port);
        $script = file_get_contents(__DIR__ . '/../lua/release.lua');
        $sha = $r->script('load', $script);
        /* The release script's keys, as RedisLock names them. */
        $keys = ['bench:callgrind:phpredis', 'bench:callgrind:phpredis:redislock-wait',
            'bench:callgrind:phpredis:redislock-wake'];
        for ($i = 0; $i < $n; $i++) {
            $token = bin2hex(random_bytes(16));
            if ($r->set($keys[0], $token, ['nx', 'px' => $ttl]) !== true
                || $r->evalSha($sha, [...$keys, $token], count($keys)) !== 1) {
                exit(1);
            }
        }
        break;
    default:
        fwrite(STDERR, "unknown variant $variant\n");
        exit(2);
}
