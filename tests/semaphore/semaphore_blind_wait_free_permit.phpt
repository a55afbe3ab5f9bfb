--TEST--
Semaphore: a waiting acquire does not begin blocked on a semaphore with permits free for it, though the process knows it marked as waited for: after a heavier hold's refusal (limit 4, 2 held, waiters marked), a hold of weight 1 is granted with its first write
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../contention.inc';
$p = 'rltest:sem_blind_free_permit:';
$o = ['servers' => RL_DSN, 'prefix' => $p, 'ttl' => 10000];
$a = rl_admin();
$h1 = new RedisLock\Semaphore('pool', 4, $o);
$h2 = new RedisLock\Semaphore('pool', 4, $o);
var_dump($h1->acquire(), $h2->acquire());
/* Waited for elsewhere (as a waiter that will wait 20 s marks it). */
$a->cmd('SET', $p . 'pool:redislock-semaphore:redislock-wait', '1', 'PX', '20000');
/* A hold of weight 3 does not fit beside the 2: refused, the process learns
 * the semaphore marked, and full for that weight. */
$big = new RedisLock\Semaphore('pool', 4, $o + ['weight' => 3]);
var_dump($big->acquire(50));
/* Two permits are free, and no wake-up is pending: a BLPOP first would
 * block while they are. */
var_dump($a->cmd('LLEN', $p . 'pool:redislock-semaphore:redislock-wake'));
$w = new RedisLock\Semaphore('pool', 4, $o);
$sent = RedisLock::stats()['commands'];
$t0 = hrtime(true);
var_dump($w->acquire(5000));
$ms = rl_cont_ms($t0);
/* The script alone, granted: no BLPOP (which would block until a lease
 * end or a recheck, a second at most). */
echo 'commands sent: ', RedisLock::stats()['commands'] - $sent, ', ', $ms < 500 ? 'at once' : "after $ms ms", "\n";
var_dump($w->release());
var_dump($h1->release(), $h2->release());
?>
--CLEAN--
<?php
require __DIR__ . '/../core.inc';
rl_core_clean('rltest:sem_blind_free_permit:');
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
int(0)
bool(true)
commands sent: 1, at once
bool(true)
bool(true)
bool(true)
