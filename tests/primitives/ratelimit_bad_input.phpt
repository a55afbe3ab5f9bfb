--TEST--
RateLimiter: bad arguments and options are ValueError/TypeError naming them, before anything is sent
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
/* Nothing listens here: an error of any other kind would mean something was sent. */
$down = ['servers' => 'redis://127.0.0.1:' . rl_free_port()];
function check(callable $fn): void
{
    try {
        $fn();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
use RedisLock\RateLimiter;
check(fn () => new RateLimiter('', 1, 1000, $down));
check(fn () => new RateLimiter('a', 0, 1000, $down));
check(fn () => new RateLimiter('a', 2147483648, 1000, $down));
check(fn () => new RateLimiter('a', 10, 0, $down));
check(fn () => new RateLimiter('a', 10, -5, $down));
check(fn () => new RateLimiter('a', 10, 1000, $down + ['policy' => 'leaky_bucket']));
check(fn () => new RateLimiter('a', 10, 1000, $down + ['policy' => 1]));
check(fn () => new RateLimiter('a', 10, 1000, $down + ['ttl' => 1000]));
check(fn () => new RateLimiter('a', 10, 1000, $down + ['fair' => true]));
check(fn () => new RateLimiter('a', 10, 1000, $down + ['bogus' => 1]));
check(fn () => new RateLimiter('a', 10, 1000, $down + ['read_timeout' => 'x']));
check(fn () => new RateLimiter('a', 10, 1000, ['servers' => 'redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3']));
$l = new RateLimiter('a', 10, 1000, $down + ['policy' => 'sliding_window', 'connect_timeout' => 100]);
check(fn () => $l->consume(0));
check(fn () => $l->consume(11));
check(fn () => $l->consume(-1));
check(fn () => $l->consume(1, -1));
check(fn () => $l->consume([]));
var_dump($l->remaining(), $l->retryAfter());
/* The INI list, when it is a quorum list, is refused the same way. */
ini_set('redislock.servers', 'redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3');
check(fn () => new RateLimiter('a', 10, 1000));
check(fn () => new RedisLock\Atomic('a'));
?>
--EXPECT--
ValueError: RedisLock\RateLimiter::__construct(): Argument #1 ($name) must not be empty
ValueError: RedisLock\RateLimiter::__construct(): Argument #2 ($limit) must be between 1 and 2147483647
ValueError: RedisLock\RateLimiter::__construct(): Argument #2 ($limit) must be between 1 and 2147483647
ValueError: RedisLock\RateLimiter::__construct(): Argument #3 ($windowMs) must be between 1 and 2147483647
ValueError: RedisLock\RateLimiter::__construct(): Argument #3 ($windowMs) must be between 1 and 2147483647
ValueError: RedisLock\RateLimiter::__construct(): Argument #4 ($options) option "policy" must be "gcra", "fixed_window" or "sliding_window"
TypeError: RedisLock\RateLimiter::__construct(): Argument #4 ($options) option "policy" must be of type string, int given
ValueError: RedisLock\RateLimiter::__construct(): Argument #4 ($options) contains the option "ttl", which is RedisLock's and means nothing to RedisLock\RateLimiter
ValueError: RedisLock\RateLimiter::__construct(): Argument #4 ($options) contains the option "fair", which is RedisLock's and means nothing to RedisLock\RateLimiter
ValueError: RedisLock\RateLimiter::__construct(): Argument #4 ($options) contains unknown option "bogus"
TypeError: RedisLock\RateLimiter::__construct(): Argument #4 ($options) option "read_timeout" must be of type int, string given
ValueError: RedisLock\RateLimiter::__construct(): Argument #4 ($options) option "servers" lists 3 servers, but RedisLock\RateLimiter needs a single server: separate counts on independent masters cannot enforce one limit
ValueError: RedisLock\RateLimiter::consume(): Argument #1 ($permits) must be between 1 and the limit (10)
ValueError: RedisLock\RateLimiter::consume(): Argument #1 ($permits) must be between 1 and the limit (10)
ValueError: RedisLock\RateLimiter::consume(): Argument #1 ($permits) must be between 1 and the limit (10)
ValueError: RedisLock\RateLimiter::consume(): Argument #2 ($waitMs) must be greater than or equal to 0
TypeError: RedisLock\RateLimiter::consume(): Argument #1 ($permits) must be of type int, array given
int(10)
int(0)
ValueError: redislock.servers lists 3 servers, but RedisLock\RateLimiter needs a single server: separate counts on independent masters cannot enforce one limit
ValueError: redislock.servers lists 3 servers, but RedisLock\Atomic needs a single server: a value kept on independent masters could differ from one to the next
