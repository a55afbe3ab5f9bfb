--TEST--
Keepalive: RateLimiter and Atomic refuse the options keepalive and max_hold, as RedisLock's other lock options
--EXTENSIONS--
redislock
--FILE--
<?php
use RedisLock\Atomic;
use RedisLock\RateLimiter;

foreach ([['keepalive' => true], ['max_hold' => 1000]] as $o) {
    foreach ([fn () => new RateLimiter('a', 10, 1000, $o), fn () => new Atomic('a', $o)] as $f) {
        try {
            $f();
            echo "accepted\n";
        } catch (ValueError $e) {
            echo $e->getMessage(), "\n";
        }
    }
}
?>
--EXPECT--
RedisLock\RateLimiter::__construct(): Argument #4 ($options) contains the option "keepalive", which is RedisLock's and means nothing to RedisLock\RateLimiter
RedisLock\Atomic::__construct(): Argument #2 ($options) contains the option "keepalive", which is RedisLock's and means nothing to RedisLock\Atomic
RedisLock\RateLimiter::__construct(): Argument #4 ($options) contains the option "max_hold", which is RedisLock's and means nothing to RedisLock\RateLimiter
RedisLock\Atomic::__construct(): Argument #2 ($options) contains the option "max_hold", which is RedisLock's and means nothing to RedisLock\Atomic
