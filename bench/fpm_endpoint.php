<?php
/*
 * bench/fpm_endpoint.php: a lock-protected endpoint served by php-fpm, the
 * way an application uses RedisLock. Server, prefix and persistence come
 * from the pool's php_admin_value[redislock.*] entries (bench/fpm.sh).
 *
 * Takes the lock of one of 10000 items (one attempt), does its "work" and
 * releases it. Answers "ok", or "busy" with status 409 when another request
 * held that item's lock.
 */
$lock = new RedisLock('item:' . random_int(1, 10000));
if (!$lock->acquire()) {
    http_response_code(409);
    exit("busy\n");
}
$work = hash('crc32b', $lock->token());
echo $lock->release() ? "ok\n" : "lost\n";
