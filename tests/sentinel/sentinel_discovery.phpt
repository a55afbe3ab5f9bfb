--TEST--
redis-sentinel://: the master is found through the Sentinels (their password apart from the data nodes'), also as a member of a quorum list with plain servers, and after SENTINEL FAILOVER locks go to the new master within seconds and the connection to the old one is closed
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';
$s = new RLSentinels();
$old = $s->masterPort();

$l = new RedisLock('sentinel:a', ['servers' => $s->dsn()]);
var_dump($l->acquire());
var_dump($s->node($old)->cmd('GET', 'sentinel:a') === $l->token());
var_dump($l->release());

/* A quorum list mixing the Sentinel deployment with two plain servers. */
$plain = new RLServer();
$q = new RedisLock('sentinel:q', ['servers' => $s->dsn() . ',' . RL_DSN . ',' . $plain->dsn(), 'quorum_timeout' => 1000]);
var_dump($q->acquire());
var_dump($s->node($old)->cmd('GET', 'sentinel:q') === $q->token() && rl_admin()->cmd('GET', 'sentinel:q') === $q->token()
    && $plain->client()->cmd('GET', 'sentinel:q') === $q->token());
var_dump($q->release(), rl_admin()->cmd('EXISTS', 'sentinel:q'));

function attempt(string $what, string $dsn): void
{
    try {
        (new RedisLock('sentinel:b', ['servers' => $dsn, 'connect_timeout' => 500]))->acquire();
        echo "$what: acquired\n";
    } catch (RedisLockException $e) {
        $m = $e->getMessage();
        echo "$what: ", get_class($e), ' ', str_contains($m, RL_SENTINEL_PW) || str_contains($m, 'WrongPw') ? 'LEAKED ' : '',
            preg_replace('/127\.0\.0\.1:\d+/', 'ADDR', $m), "\n";
    }
}
attempt('unknown master', str_replace('master=' . RL_SENTINEL_MASTER, 'master=nosuch', $s->dsn()));
attempt('wrong Sentinel password', str_replace('sentinel_password=' . RL_SENTINEL_PW, 'sentinel_password=WrongPw', $s->dsn()));

/* Who holds connections named for this process on a node. */
function mine(RLSentinels $s, int $port): int
{
    return substr_count((string) $s->node($port)->cmd('CLIENT', 'LIST'), 'name=redislock:' . getmypid() . ' ');
}
var_dump(mine($s, $old));

$new = $s->failover();
/* Within a few seconds (the Sentinels are asked again each second), a lock
 * is taken on the new master. */
$on_new = false;
for ($i = 0; $i < 100 && !$on_new; $i++) {
    try {
        $l = new RedisLock('sentinel:c', ['servers' => $s->dsn()]);
        if ($l->acquire()) {
            $on_new = $s->node($new)->cmd('GET', 'sentinel:c') === $l->token();
            $l->release();
        }
    } catch (RedisLock\ConnectionException) {
    }
    if (!$on_new) {
        usleep(50000);
    }
}
var_dump($on_new, mine($s, $old), mine($s, $new));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
unknown master: RedisLock\ConnectionException acquire failed: no Sentinel named a master for nosuch: they do not know it
wrong Sentinel password: RedisLock\ConnectionException acquire failed: no Sentinel named a master for rlmaster: authentication to ADDR failed: WRONGPASS invalid username-password pair or user is disabled.
int(1)
bool(true)
int(0)
int(1)
