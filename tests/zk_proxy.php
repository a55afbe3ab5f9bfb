<?php
/*
 * A fault-injecting proxy in front of a ZooKeeper server, for the zk_*.phpt
 * tests (started and stopped by RLZooKeeperProxy in tests/zookeeper.inc; it
 * needs no extension and runs under `php -n`).
 *
 *   php -n tests/zk_proxy.php --target 127.0.0.1:PORT [--listen PORT] [--control PORT]
 *                             [--max-seconds 120] [--watch-stdin] [--pidfile FILE]
 *
 * It listens on 127.0.0.1:--listen (0: any free port) and forwards each
 * client connection to the ZooKeeper server at --target, which must be on
 * loopback. It reads both directions as ZooKeeper frames (a 4-byte
 * big-endian length, then the frame; after a connection's first request,
 * its handshake, each request starts with its xid and its operation code,
 * each reply with the xid it answers). Once both ports listen it prints
 *
 *     READY <listen port> <control port>
 *
 * on stdout. It ends by itself: when its standard input closes (with
 * --watch-stdin: the test that started it is gone), after --max-seconds
 * (at most 600), or on the control command `quit`.
 *
 * Control: connect to 127.0.0.1:<control port> and send one command a line;
 * each is answered with one line, "OK[ ...]" or "ERR <why>".
 *
 *   lose_create [times=N] the next N (default 1) creates of an ephemeral
 *                         lock node ("/lock-" in its path), one per
 *                         connection, go to the server, but their replies
 *                         are swallowed and the client's connection closed,
 *                         as a network failure would do after the server
 *                         carried the request out (or refused it)
 *   silence               from now on nothing is forwarded in either
 *                         direction, on the open connections and on the new
 *                         ones (which are accepted), and nothing is closed:
 *                         a link that went silent (a partition, a dead
 *                         route) while both ends keep running. The bytes
 *                         wait in the sockets' buffers, unread
 *   pass                  forward again (ends silence and lose_create);
 *                         what waited goes through now
 *   stats                 OK {"accepted":N,"open":N,"lost":N,"silent":B} (JSON)
 *   ping | quit
 */
declare(strict_types=1);

require __DIR__ . '/proxy_control.php';

const RLZP_OP_CREATE = 1;

/* Splits the complete frames off the front of $buf. */
function rlzp_frames(string &$buf): array
{
    $out = [];
    while (strlen($buf) >= 4) {
        $len = unpack('N', $buf)[1];
        if (strlen($buf) < 4 + $len) {
            break;
        }
        $out[] = substr($buf, 0, 4 + $len);
        $buf = (string) substr($buf, 4 + $len);
    }
    return $out;
}

/* One client connection and its connection to the server. */
final class RlzpConn
{
    public string $cin = '';        /* client bytes not yet split into frames */
    public string $sin = '';        /* server bytes not yet split into frames */
    public bool $handshake = false; /* the client's first frame went through */
    public ?int $swallow = null;    /* xid of the create whose reply is to be lost */

    public function __construct(public $client, public $server)
    {
    }
}

final class RlzpProxy
{
    use RlpControl;

    private $listen;
    private array $conns = []; /* id of the client socket => RlzpConn */
    private int $loseCreates = 0;
    private bool $silent = false;
    private array $stats = ['accepted' => 0, 'open' => 0, 'lost' => 0];

    public function __construct(private int $targetPort, int $port, int $controlPort, private float $endAt,
                                bool $watchStdin)
    {
        $this->listen = @stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr);
        if (!$this->listen) {
            rlp_die("cannot listen on 127.0.0.1:$port: $errstr");
        }
        $this->listenControl($controlPort, $watchStdin);
    }

    public function run(): void
    {
        while (!$this->quit && rlp_now() < $this->endAt) {
            $read = [$this->listen, ...$this->controlSockets()];
            if (!$this->silent) {
                foreach ($this->conns as $c) {
                    $read[] = $c->client;
                    $read[] = $c->server;
                }
            }
            $write = $except = null;
            if (@stream_select($read, $write, $except, 0, 100000) === false) {
                usleep(1000); /* a signal: look again */
                continue;
            }
            foreach ($read as $s) {
                if ($s === $this->listen) {
                    $this->accept();
                } elseif ($this->serveControl($s)) {
                    /* a control connection's, served */
                } elseif (!$this->silent) {
                    $this->forward($s);
                }
            }
        }
    }

    public function shutdown(): void
    {
        foreach ($this->conns as $c) {
            $this->close($c);
        }
        $this->closeControl();
        fclose($this->listen);
    }

    private function accept(): void
    {
        $client = @stream_socket_accept($this->listen, 0);
        if (!$client) {
            return;
        }
        $server = @stream_socket_client("tcp://127.0.0.1:{$this->targetPort}", $errno, $errstr, 2);
        if (!$server) {
            fclose($client);
            return;
        }
        $this->conns[(int) $client] = new RlzpConn($client, $server);
        $this->stats['accepted']++;
        $this->stats['open']++;
    }

    private function close(RlzpConn $c): void
    {
        @fclose($c->client);
        @fclose($c->server);
        unset($this->conns[(int) $c->client]);
        $this->stats['open']--;
    }

    /* Reads what $s has and forwards its complete frames to the other side. */
    private function forward($s): void
    {
        $c = null;
        foreach ($this->conns as $conn) {
            if ($s === $conn->client || $s === $conn->server) {
                $c = $conn;
                break;
            }
        }
        if ($c === null) {
            return; /* closed earlier in this round */
        }
        $data = @fread($s, 65536);
        if ($data === '' || $data === false) {
            $this->close($c);
            return;
        }
        if ($s === $c->client) {
            $c->cin .= $data;
            foreach (rlzp_frames($c->cin) as $f) {
                if (!$c->handshake) {
                    $c->handshake = true;
                } elseif ($this->loseCreates > 0 && $c->swallow === null && strlen($f) >= 12
                          && unpack('N', $f, 8)[1] === RLZP_OP_CREATE && str_contains($f, '/lock-')) {
                    $c->swallow = unpack('N', $f, 4)[1];
                    $this->loseCreates--;
                }
                fwrite($c->server, $f);
            }
            return;
        }
        $c->sin .= $data;
        foreach (rlzp_frames($c->sin) as $f) {
            if ($c->swallow !== null && strlen($f) >= 8 && unpack('N', $f, 4)[1] === $c->swallow) {
                $this->stats['lost']++;
                $this->close($c);
                return;
            }
            fwrite($c->client, $f);
        }
    }

    /* Runs one control command; returns the answer line. */
    private function command(string $line): string
    {
        $words = preg_split('/ +/', trim($line));
        switch (strtolower((string) array_shift($words))) {
            case 'ping':
                return 'OK pong';
            case 'quit':
                $this->quit = true;
                return 'OK';
            case 'stats':
                return 'OK ' . json_encode($this->stats + ['silent' => $this->silent]);
            case 'pass':
                $this->silent = false;
                $this->loseCreates = 0;
                return 'OK';
            case 'silence':
                $this->silent = true;
                return 'OK';
            case 'lose_create':
                $times = 1;
                if ($words && preg_match('/^times=(\d+)$/D', $words[0], $m)) {
                    $times = max(1, (int) $m[1]);
                }
                $this->loseCreates = $times;
                return 'OK';
        }
        return 'ERR unknown command: ' . $line;
    }
}

/* The command line. */
$opt = getopt('', ['target:', 'listen:', 'control:', 'max-seconds:', 'watch-stdin', 'pidfile:']);
if (!isset($opt['target']) || !preg_match('/^127\.0\.0\.1:(\d+)$/D', (string) $opt['target'], $m)) {
    rlp_die('usage: zk_proxy.php --target 127.0.0.1:PORT [--listen PORT] [--control PORT] [--max-seconds N]'
        . ' [--watch-stdin] [--pidfile FILE] (the target must be on loopback)');
}
$maxSeconds = min(600, max(1, (int) ($opt['max-seconds'] ?? 120)));
$proxy = new RlzpProxy((int) $m[1], (int) ($opt['listen'] ?? 0), (int) ($opt['control'] ?? 0),
    rlp_now() + $maxSeconds * 1000, isset($opt['watch-stdin']));
rlp_serve($proxy, isset($opt['pidfile']) ? (string) $opt['pidfile'] : null);
