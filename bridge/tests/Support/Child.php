<?php

declare(strict_types=1);

namespace RedisLock\Bridge\Tests\Support;

/**
 * Another PHP process running one of the scripts in tests/Support/children with the same
 * redislock module as this one (and the environment, so the same test server): a second
 * application process. It talks in lines on stdin/stdout; every read is bounded.
 */
final class Child
{
    private const READ_TIMEOUT_S = 20;

    /** @var resource */
    private $process;

    /** @var array<int, resource> */
    private array $pipes;

    /** @param list<string> $args */
    public function __construct(string $script, array $args = [])
    {
        // The parent's include path (where the frameworks are) and its way of reporting errors:
        // on stderr, or into the log the phpt prints (tests/phpt/phpunit.inc).
        $log = (string) ini_get('error_log');
        $errors = $log !== '' && !ini_get('display_errors')
            ? ['-d', 'display_errors=0', '-d', 'log_errors=1', '-d', 'error_log=' . $log]
            : ['-d', 'display_errors=stderr', '-d', 'log_errors=0'];
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . self::modulePath(), '-d', 'include_path=' . get_include_path(),
            ...$errors, __DIR__ . '/children/' . $script . '.php', ...$args];
        $process = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $pipes);
        if ($process === false) {
            throw new \RuntimeException("cannot start child $script");
        }
        $this->process = $process;
        $this->pipes = $pipes;
    }

    public function readLine(): string
    {
        $read = [$this->pipes[1]];
        $none = null;
        if (stream_select($read, $none, $none, self::READ_TIMEOUT_S) !== 1) {
            throw new \RuntimeException('the child said nothing in time');
        }
        $line = fgets($this->pipes[1]);
        if ($line === false) {
            throw new \RuntimeException('the child ended without a word');
        }

        return rtrim($line, "\n");
    }

    public function writeLine(string $line): void
    {
        fwrite($this->pipes[0], $line . "\n");
    }

    /** Waits for the child to end; returns its exit code. */
    public function wait(): int
    {
        fclose($this->pipes[0]);
        stream_get_contents($this->pipes[1]);
        fclose($this->pipes[1]);

        return proc_close($this->process);
    }

    /** The redislock module this process runs. */
    private static function modulePath(): string
    {
        foreach (file('/proc/self/maps') ?: [] as $line) {
            if (preg_match('~\s(/\S*/redislock\.so)$~', rtrim($line), $m)) {
                return $m[1];
            }
        }

        return (string) ini_get('extension_dir') . '/redislock.so';
    }
}
