--TEST--
RateLimiter sliding_window: the server's work for one consume() does not grow with the permits asked for (no entry per permit), and the limit stays exact
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
/* A server of its own, whose slow log records every command with the time it kept the server busy. */
$srv = new RLServer(['--slowlog-log-slower-than', '0', '--slowlog-max-len', '1000']);
$c = $srv->client();
$l = new RedisLock\RateLimiter('bulk', 3000000, 60000, ['servers' => $srv->dsn(), 'policy' => 'sliding_window',
                                                      'read_timeout' => 30000]);
var_dump($l->consume(1)); /* the script is loaded */
$c->cmd('SLOWLOG', 'RESET');
/* One permit at a time, a script would run for seconds here (about 2 us a permit): the server would
 * answer no one meanwhile. */
var_dump($l->consume(1000000), $l->consume(1999999), $l->remaining());
var_dump($l->consume(1), $l->remaining(), $l->retryAfter() > 59000 && $l->retryAfter() <= 60000);
$busy = [];
foreach ($c->cmd('SLOWLOG', 'GET', '100') as $entry) {
    if (in_array(strtoupper($entry[3][0]), ['EVALSHA', 'EVAL'], true)) {
        $busy[] = $entry[2];
    }
}
echo count($busy), " consume() scripts, the longest ", max($busy) < 50000 ? 'well under' : 'over', " 50 ms of server time\n";
if (max($busy) >= 50000) {
    echo 'server time (us): ', implode(', ', $busy), "\n";
}
/* What the server keeps: one member per consume() that took permits. */
var_dump($c->cmd('ZCARD', 'bulk:redislock-sliding_window'));
var_dump($c->cmd('PING'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(0)
bool(false)
int(0)
bool(true)
3 consume() scripts, the longest well under 50 ms of server time
int(3)
string(4) "PONG"
