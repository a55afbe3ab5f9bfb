--TEST--
redis-cluster://: ASK, MOVED and TRYAGAIN answered to any one command of a pipeline (a fault proxy in front of the slot's master) are followed for that command alone: waiting acquires, fair mode, release, extend and the rate limiter succeed, and TRYAGAIN is retried past four tries until the operation's deadline
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../proxy.inc';
$c = new RLCluster();
$slot = $c->slot('px');
$master = $c->masterOf($slot);
/* The master of the lock's slot announces the proxy's port: the slot map
 * sends every command of the slot through the proxy. */
$proxy = new RLProxy($master);
$c->client($master)->cmd('CONFIG', 'SET', 'cluster-announce-port', (string) $proxy->port);
$seen = false;
for ($i = 0; $i < 500 && !$seen; $i++) {
    $seen = true;
    foreach ($c->nodes as $port => $n) {
        foreach ($n->client()->cmd('CLUSTER', 'SLOTS') as $r) {
            if ($slot >= $r[0] && $slot <= $r[1] && (int) $r[2][1] !== $proxy->port) {
                $seen = false;
            }
        }
    }
    $seen || usleep(20000);
}
var_dump($seen);
$opts = ['servers' => $c->dsn(), 'read_timeout' => 3000, 'connect_timeout' => 2000];
/* The redirects name the proxy (the slot's master itself): the map keeps
 * sending the slot's commands through it. */
$self = "127.0.0.1:{$proxy->port}";
$faults = [
    'ASK' => "ASK $slot $self",
    'MOVED' => "MOVED $slot $self",
    'TRYAGAIN' => 'TRYAGAIN Multiple keys request during rehashing of slot',
];

/* A fault on one command: answered in the server's place $times times
 * (the command not run), then passed on. The proxy is back in the map
 * after a MOVED (which names the node itself). */
function fault(RLProxy $proxy, string $cmd, string $text, int $times, int $skip = 0): void
{
    $proxy->fault("cmd=$cmd times=$times skip=$skip error $text");
}
/* Runs $fn and prints what it returned, and whether the proxy answered
 * in the server's place as often as told. */
function run(RLProxy $proxy, string $what, callable $fn, int $times): void
{
    $before = $proxy->stats()["intercepted"];
    try {
        $r = var_export($fn(), true);
    } catch (RedisLockException $e) {
        $r = 'threw ' . get_class($e) . ': ' . preg_replace('/\d+/', 'N', $e->getMessage());
    }
    $hit = $proxy->stats()["intercepted"] - $before;
    echo "$what: ", str_replace("\n", ' ', $r), $hit === $times ? '' : " (the fault hit $hit times, not $times)", "\n";
}
/* A new lock name in the slot of 'px'. */
function name(): string
{
    static $n = 0;
    return '{px}' . $n++;
}

foreach ($faults as $kind => $text) {
    $times = $kind === 'TRYAGAIN' ? 5 : 1; /* four tries were all there was */
    /* Single commands: release, extend (EVALSHA), the rate limiter. */
    $l = new RedisLock(name(), $opts + ['ttl' => 30000]);
    var_dump($l->acquire());
    fault($proxy, 'EVALSHA', $text, $times);
    run($proxy, "$kind extend", fn() => $l->extend(), $times);
    fault($proxy, 'EVALSHA', $text, $times);
    run($proxy, "$kind release", fn() => $l->release(), $times);
    $rl = new RedisLock\RateLimiter('{px}rate', 3, 60000, ['servers' => $c->dsn(), 'read_timeout' => 3000]);
    $rl->reset();
    fault($proxy, 'EVALSHA', $text, $times);
    run($proxy, "$kind consume", fn() => [$rl->consume(2), $rl->consume(1), $rl->consume(1)], $times);

    /* A waiting acquire's write: the marking script, the BLPOP, the
     * attempt; each in turn answered $kind. The lock is held by another
     * whose lease ends in 200 ms. */
    foreach (['mark' => ['EVALSHA', 0], 'BLPOP' => ['BLPOP', 0], 'attempt' => ['EVALSHA', 1]] as $which => [$cmd, $skip]) {
        $name = name();
        $h = new RedisLock($name, $opts + ['ttl' => 200]);
        $h->acquire();
        $w = new RedisLock($name, $opts + ['ttl' => 30000]);
        $w->acquire(1); /* loads the scripts: the next attempts send EVALSHA */
        fault($proxy, $cmd, $text, $times, $skip);
        run($proxy, "$kind on the wait's $which", fn() => $w->acquire(5000) && $w->isAcquired() && $w->release(), $times);
        $proxy->pass();
    }

    /* Fair mode: a holder in another process releases after 150 ms,
     * handing the lock to the waiter, whose BLPOP or claim behind it is
     * answered $kind. */
    foreach (['BLPOP', 'EVALSHA'] as $cmd) {
        $name = name();
        $ready = RL_RUNDIR . '/cluster-proxy-ready-' . getmypid();
        @unlink($ready);
        $pid = pcntl_fork();
        if ($pid === 0) {
            $h = new RedisLock($name, $opts + ['ttl' => 30000, 'fair' => true]);
            $h->acquire();
            touch($ready);
            usleep(150000);
            exit($h->release() ? 0 : 1);
        }
        for ($i = 0; $i < 500 && !file_exists($ready); $i++) {
            usleep(10000);
        }
        $w = new RedisLock($name, $opts + ['ttl' => 30000, 'fair' => true]);
        fault($proxy, $cmd, $text, $times, $cmd === 'EVALSHA' ? 1 : 0);
        run($proxy, "$kind fair, on $cmd", fn() => $w->acquire(5000) && $w->release(), $times);
        pcntl_waitpid($pid, $status);
        echo 'holder released: ', var_export(pcntl_wexitstatus($status) === 0, true), "\n";
        $proxy->pass();
    }
}
$proxy->pass();
var_dump($c->client($master)->cmd('EXISTS', 'px'));
$c->client($master)->cmd('CONFIG', 'SET', 'cluster-announce-port', '0');
$proxy->stop();
?>
--EXPECT--
bool(true)
bool(true)
ASK extend: true
ASK release: true
ASK consume: array (   0 => true,   1 => true,   2 => false, )
ASK on the wait's mark: true
ASK on the wait's BLPOP: true
ASK on the wait's attempt: true
ASK fair, on BLPOP: true
holder released: true
ASK fair, on EVALSHA: true
holder released: true
bool(true)
MOVED extend: true
MOVED release: true
MOVED consume: array (   0 => true,   1 => true,   2 => false, )
MOVED on the wait's mark: true
MOVED on the wait's BLPOP: true
MOVED on the wait's attempt: true
MOVED fair, on BLPOP: true
holder released: true
MOVED fair, on EVALSHA: true
holder released: true
bool(true)
TRYAGAIN extend: true
TRYAGAIN release: true
TRYAGAIN consume: array (   0 => true,   1 => true,   2 => false, )
TRYAGAIN on the wait's mark: true
TRYAGAIN on the wait's BLPOP: true
TRYAGAIN on the wait's attempt: true
TRYAGAIN fair, on BLPOP: true
holder released: true
TRYAGAIN fair, on EVALSHA: true
holder released: true
int(0)
