<?php
/*
 * Shared by the test proxies, tests/proxy.php (Redis) and tests/zk_proxy.php
 * (ZooKeeper), which run under `php -n`: their clock, how they fail, their
 * control port, and how they are run from the command line.
 *
 * Control: a test connects to 127.0.0.1:<control port> (any number of
 * connections, from any process) and sends one command a line; each is
 * answered with one line, "OK[ ...]" or "ERR <why>", by the proxy's
 * command(). `quit` (the proxy's to handle: it sets $this->quit) ends it,
 * and so does the end of its standard input when it watches it (the test
 * that started it is gone).
 */
declare(strict_types=1);

function rlp_now(): float
{
    return hrtime(true) / 1e6;
}

/* The port a listening socket is bound to. */
function rlp_port($listener): int
{
    $name = stream_socket_get_name($listener, false);
    return (int) substr($name, strrpos($name, ':') + 1);
}

/* Ends the proxy with msg on stderr, named for its script. */
function rlp_die(string $msg): never
{
    fwrite(STDERR, basename((string) ($_SERVER['argv'][0] ?? 'proxy'), '.php') . ": $msg\n");
    exit(2);
}

/* The control port of a proxy; the proxy answers each line in command(). */
trait RlpControl
{
    private $control;
    private array $ctl = [];      /* control connections: id => [socket, buffer] */
    private bool $quit = false;
    private bool $watchStdin = false;

    /* Runs one control command; returns the answer line. */
    abstract private function command(string $line): string;

    /* Listens for control connections on 127.0.0.1:$port (0: any free
     * port), and with $watchStdin watches the standard input for its end. */
    private function listenControl(int $port, bool $watchStdin): void
    {
        $this->watchStdin = $watchStdin;
        if ($watchStdin) {
            stream_set_blocking(STDIN, false);
        }
        $this->control = @stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr);
        if (!$this->control) {
            rlp_die("cannot listen on 127.0.0.1:$port: $errstr");
        }
    }

    /* The ports the proxy listens on: its own (the class's listener,
     * $this->listen) and the control port. */
    public function ports(): array
    {
        return [rlp_port($this->listen), rlp_port($this->control)];
    }

    /* The sockets to watch for reading: the listener, each connection, and
     * the standard input when watched. */
    private function controlSockets(): array
    {
        return [$this->control, ...array_column($this->ctl, 0), ...($this->watchStdin ? [STDIN] : [])];
    }

    /* Serves $s when it is a control socket (a connection to accept, a
     * command to answer, the standard input ended: quit); false when it is
     * not one. */
    private function serveControl($s): bool
    {
        if ($s === STDIN) {
            $this->quit = $this->quit || (fread(STDIN, 4096) === '' && feof(STDIN));
            return true;
        }
        if ($s === $this->control) {
            $c = @stream_socket_accept($this->control, 0);
            if ($c) {
                stream_set_blocking($c, false);
                $this->ctl[(int) $c] = [$c, ''];
            }
            return true;
        }
        if (!isset($this->ctl[(int) $s])) {
            return false;
        }
        $data = @fread($s, 4096);
        if ($data === false || ($data === '' && feof($s))) {
            unset($this->ctl[(int) $s]);
            fclose($s);
            return true;
        }
        $this->ctl[(int) $s][1] .= $data;
        while (($eol = strpos($this->ctl[(int) $s][1], "\n")) !== false) {
            $line = rtrim(substr($this->ctl[(int) $s][1], 0, $eol), "\r");
            $this->ctl[(int) $s][1] = (string) substr($this->ctl[(int) $s][1], $eol + 1);
            $answer = $this->command($line);
            stream_set_blocking($s, true);
            @fwrite($s, $answer . "\n");
            stream_set_blocking($s, false);
        }
        return true;
    }

    /* Closes the listener and every control connection. */
    private function closeControl(): void
    {
        foreach ($this->ctl as [$s]) {
            fclose($s);
        }
        $this->ctl = [];
        fclose($this->control);
    }
}

/* Runs $proxy (its ports(), run() and shutdown()) as started from the
 * command line: writes its pid to $pidfile (when given), says
 * "READY <listen port> <control port>" on stdout, and removes the pid file
 * once it has ended. */
function rlp_serve(object $proxy, ?string $pidfile): void
{
    if ($pidfile !== null) {
        file_put_contents($pidfile, getmypid() . "\n");
    }
    [$port, $controlPort] = $proxy->ports();
    fwrite(STDOUT, "READY $port $controlPort\n");
    $proxy->run();
    $proxy->shutdown();
    if ($pidfile !== null) {
        @unlink($pidfile);
    }
}
