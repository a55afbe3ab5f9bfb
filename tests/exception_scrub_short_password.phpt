--TEST--
Passwords that occur in an error message by chance (short ones, "*") are masked safely: no overflow, no endless loop
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';

/* Runs $fn in a child (killed if it hangs) and returns its result, or how it died. */
function in_child(callable $fn): string
{
    $out = RL_RUNDIR . '/scrub-' . getmypid() . '.out';
    @unlink($out);
    $codes = rl_fork(1, function () use ($fn, $out) {
        pcntl_alarm(20);
        file_put_contents($out, $fn());
        return 0;
    });
    if ($codes[0] !== 0) {
        echo "the child died (exit code $codes[0]: -1 is a signal)\n";
    }
    $result = (string) @file_get_contents($out);
    @unlink($out);
    return $result;
}

/* The message of the exception acquire() throws. */
function failure(string $servers): string
{
    try {
        (new RedisLock('job', ['servers' => $servers, 'prefix' => 'rltest:exception_scrub_short_password:']))->acquire();
        return 'no exception';
    } catch (RedisLockException $e) {
        return $e->getMessage();
    }
}

$ports = [];
for ($i = 0; $i < 15; $i++) {
    do {
        $p = rl_free_port();
    } while (in_array($p, $ports, true));
    $ports[] = $p;
}

echo "one server, password \"1\"\n";
$msg = in_child(fn() => failure("redis://:1@127.0.0.1:$ports[0]"));
$plain = "acquire failed: cannot connect to 127.0.0.1:$ports[0]: Connection refused";
var_dump($msg === str_replace('1', '***', $plain));
if ($msg !== str_replace('1', '***', $plain)) {
    echo substr($msg, 0, 120), "\n";
}

echo "fifteen servers, password \"1\": the message fills its buffer\n";
$msg = in_child(fn() => failure(implode(',', array_map(fn($p) => "redis://:1@127.0.0.1:$p", $ports))));
var_dump(str_starts_with($msg, 'acquire failed: no quorum (8 of ***5 servers needed, ***5 failed); cannot connect to ***27.0.0.***:'));
var_dump($msg !== '' && !str_contains($msg, '1'), strlen($msg) < 1024);

echo "passwords \"1\", \"*\" and \"ab\"\n";
$msg = in_child(fn() => failure("redis://:1@127.0.0.1:$ports[0],redis://:*@127.0.0.1:$ports[1],redis://:ab@127.0.0.1:$ports[2]"));
$plain = "acquire failed: no quorum (2 of 3 servers needed, 3 failed)";
foreach ([0, 1, 2] as $i) {
    $plain .= "; cannot connect to 127.0.0.1:$ports[$i]: Connection refused";
}
var_dump($msg === str_replace('1', '***', $plain));
if ($msg !== str_replace('1', '***', $plain)) {
    echo substr($msg, 0, 120), "\n";
}
?>
--EXPECT--
one server, password "1"
bool(true)
fifteen servers, password "1": the message fills its buffer
bool(true)
bool(true)
bool(true)
passwords "1", "*" and "ab"
bool(true)
