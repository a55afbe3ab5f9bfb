--TEST--
php-fpm: a request that ends while a command is unanswered, or ends inside run(), leaves nothing stale for the next request on that worker
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
require __DIR__ . '/../fpm.inc';
if ($why = rl_fpm_missing()) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../fpm.inc';
$p = 'rltest:fpm_dirty_connection_dropped:';
$srv = new RLServer();
$admin = $srv->client();
/* One worker: the probe after each request runs in the same process. */
$fpm = new RLFpm(1, ['redislock.servers' => $srv->dsn(), 'redislock.prefix' => $p]);
$fpm->script('end.php', <<<'PHP'
<?php
function cpu(): float
{
    $r = getrusage();
    return $r['ru_utime.tv_sec'] + $r['ru_utime.tv_usec'] / 1e6 + $r['ru_stime.tv_sec'] + $r['ru_stime.tv_usec'] / 1e6;
}
switch ($_GET['how']) {
    case 'reply timeout':
        /* The server is paused: the command is sent, its reply comes after the request ended. */
        $lock = new RedisLock('taken', ['read_timeout' => 300]);
        try {
            var_dump($lock->acquire());
        } catch (RedisLockException $e) {
            echo $e->getMessage();
        }
        break;
    case 'max_execution_time':
        /* Waits for a reply on a paused server, then runs out of time. */
        set_time_limit(1);
        $lock = new RedisLock('maxexec', ['read_timeout' => 10000, 'ttl' => 60000]);
        for ($c0 = cpu(); cpu() - $c0 < 0.5;) {
        }
        echo json_encode($lock->acquire());
        for (; cpu() - $c0 < 10;) {
        }
        echo 'not interrupted';
        break;
    case 'exit in run':
        $lock = new RedisLock('run-exit', ['auto_release' => false, 'ttl' => 60000]);
        $lock->run(function () {
            echo 'in run';
            exit(0);
        });
        break;
    case 'fatal in run':
        $lock = new RedisLock('run-fatal', ['auto_release' => false, 'ttl' => 60000]);
        $lock->run(function () {
            echo 'in run';
            undefined_function_of_fpm_dirty_connection_dropped();
        });
        break;
}
PHP);
/* Answers that come out wrong if any reply is read by the wrong command:
 * nil (taken by someone else), OK, the token, 1, 1. */
$fpm->script('probe.php', <<<'PHP'
<?php
$busy = new RedisLock('taken');
$own = new RedisLock('probe:' . $_GET['n']);
$answers = [$busy->acquire(), $own->acquire(), $own->isAcquired(), $own->extend(), $own->release()];
echo json_encode(['pid' => getmypid(), 'answers' => $answers]);
PHP);

$admin->cmd('SET', $p . 'taken', 'someone-else');
$probes = 0;
/* The next request on the worker: its answers, and whether it is the same worker. */
function probe(): string
{
    global $fpm, $probes, $pid;
    $r = json_decode((string) $fpm->request('probe.php', ['n' => ++$probes]), true) ?? [];
    $pid ??= $r['pid'] ?? null;
    return sprintf('next request: %s, same worker %s', json_encode($r['answers'] ?? null),
        var_export(($r['pid'] ?? 0) === $pid, true));
}
echo probe(), "\n";

echo "reply timeout:\n";
$admin->cmd('CLIENT', 'PAUSE', '1500', 'ALL');
echo '  ', str_replace((string) $srv->port, 'PORT', (string) $fpm->request('end.php', ['how' => 'reply timeout'])), "\n";
$admin->cmd('PING'); /* answered once the pause is over */
echo '  ', probe(), "\n";
echo '  key of the other holder: ', $admin->cmd('GET', $p . 'taken'), "\n";

echo "max_execution_time:\n";
$admin->cmd('CLIENT', 'PAUSE', '2500', 'ALL');
$body = (string) $fpm->request('end.php', ['how' => 'max_execution_time']);
echo '  ended by the time limit: ', var_export(!str_contains($body, 'not interrupted'), true), "\n";
$admin->cmd('PING');
echo '  lock released: ', var_export($admin->cmd('EXISTS', $p . 'maxexec') === 0, true), "\n";
echo '  ', probe(), "\n";

foreach (['exit in run' => 'run-exit', 'fatal in run' => 'run-fatal'] as $how => $key) {
    echo "$how:\n";
    echo '  ', $fpm->request('end.php', ['how' => $how]), "\n";
    echo '  lock released: ', var_export($admin->cmd('EXISTS', $p . $key) === 0, true), "\n";
    echo '  ', probe(), "\n";
}
echo 'time limit reached: ', substr_count($fpm->log(), 'Maximum execution time of 1 second exceeded'), "\n";
$fpm->stop();
?>
--EXPECT--
next request: [false,true,true,true,true], same worker true
reply timeout:
  acquire failed: 127.0.0.1:PORT did not reply within 300 ms
  next request: [false,true,true,true,true], same worker true
  key of the other holder: someone-else
max_execution_time:
  ended by the time limit: true
  lock released: true
  next request: [false,true,true,true,true], same worker true
exit in run:
  in run
  lock released: true
  next request: [false,true,true,true,true], same worker true
fatal in run:
  in run
  lock released: true
  next request: [false,true,true,true,true], same worker true
time limit reached: 1
