<?php
/*
 * A fault-injecting proxy in front of a redis-server, for the proxy_*.phpt
 * tests (started and stopped by tests/proxy.inc; it needs no extension and
 * runs under `php -n`).
 *
 *   php -n tests/proxy.php --target 127.0.0.1:PORT [--listen PORT] [--control PORT]
 *                          [--tls DIR] [--unix PATH] [--max-seconds 120] [--watch-stdin] [--pidfile FILE]
 *
 * It listens on 127.0.0.1:--listen (0: any free port) and forwards each
 * client connection to the server at --target, which must be on loopback.
 * It reads both directions as RESP: the commands a client sends (so a reply
 * is known to answer which command) and the replies the server sends back
 * (so a fault hits exactly one reply).
 *
 * With --unix PATH it also listens on a unix socket at PATH (created anew,
 * mode 0700), whose connections get the same faults as the TCP ones: the
 * unix transport under the same fault tests.
 *
 * With --tls DIR it speaks TLS to its clients (the server side, with
 * DIR/server.pem and DIR/server.key, as tests/tls.inc makes them) and plain
 * RESP to the server. Each write of a reply is one TLS record, so a fault
 * chooses the records: split cuts a reply into records of 1..MAX bytes,
 * `extra ... apart` and `twice` put the unsolicited reply in a record of its
 * own. The TLS session runs on an inner loopback connection whose raw bytes
 * the proxy relays to the client: records written in one go (a reply and the
 * record behind it) reach the client in one write, so that one recv() of
 * the client's takes them both, as a server's or a middlebox's coalesced
 * records do.
 *
 * Once both ports listen it prints
 *
 *     READY <listen port> <control port>
 *
 * on stdout. It ends by itself: when its standard input closes (with
 * --watch-stdin: the test that started it is gone), after --max-seconds, or
 * on the control command `quit`.
 *
 * Control: connect to 127.0.0.1:<control port> (any number of connections,
 * from any process) and send one command a line; each is answered with one
 * line, "OK[ ...]" or "ERR <why>". A fault is decided when a command
 * arrives from the client, so setting one affects the replies of commands
 * sent after it, on new and existing connections alike.
 *
 *   pass                 forward faithfully again (clears every fault)
 *   extra [REPLY] [after=MS] [apart] [torn=MS]
 *                        after the next reply, one more that nobody asked
 *                        for (default +OK), in the same write, or MS ms later,
 *                        or (apart) right behind it in a write of its own:
 *                        over TLS a record of its own, in the same segment;
 *                        torn (implies apart): only its first bytes go with
 *                        the reply (over TLS: the first bytes of its record),
 *                        the rest MS ms later, ahead of anything after it
 *   twice                send the next reply twice, the copy right behind
 *                        in a write (over TLS a record) of its own
 *   wrongtype [REPLY]    replace the next reply with one of another type
 *                        (default: :1 for a status, nil or bulk reply, +OK
 *                        for an integer, array or error reply)
 *   error TEXT           answer the next command with -TEXT in place of the
 *                        server: the command is NOT sent, as when a server
 *                        refuses one (OOM, READONLY)
 *   close_after          send the next reply whole, then close the client's
 *                        connection (the client got its answer; its next
 *                        command needs a new connection)
 *   close_mid            send the first half of the next reply, then close
 *                        the client's connection
 *   huge_array           replace the next reply with *999999999, then
 *                        trickle :1 elements (one every 10 ms)
 *   huge_bulk            replace the next reply with $999999999, then
 *                        trickle bytes (512 every 10 ms)
 *   refuse TEXT          at the next accept, send -TEXT and close at once,
 *                        as a redis-server at maxclients does
 *   stall                at the next accept, take the connection and never
 *                        answer it: what the client sends is read and
 *                        dropped (over TLS: a handshake that never ends)
 *   refuse_late TEXT     the same race lost the other way, made certain: a
 *                        busy server that takes the connection from its
 *                        backlog with the client's handshake already there.
 *                        The proxy waits for the client's first bytes (at
 *                        most 200 ms), sends -TEXT (which the client reads
 *                        as the reply to its handshake), and closes once
 *                        the client sends more (at most 200 ms later),
 *                        without reading it: the client's next read finds
 *                        the connection reset
 *   split [MAX] [GAP_MS] from now on, send replies in pieces of 1..MAX bytes
 *                        (default 3) GAP_MS apart (default 1); over TLS a
 *                        record each, and with GAP_MS 0 all written in one
 *                        go, so that the records reach the client together
 *   delay MS             from now on, hold every reply MS ms after it came
 *   silent               from now on, swallow replies: the server runs the
 *                        commands, the clients never hear back
 *   stats                OK {"accepted":N,"refused":N,"stalled":N,"open":N,"commands":N,
 *                        "by_command":{...},"replies":N,"swallowed":N,
 *                        "intercepted":N,"faulted":N} (JSON)
 *   drop                 close every client connection (as CLIENT KILL), stalled
 *                        ones too
 *   ping | quit
 *
 * extra, twice, wrongtype, error, close_after, close_mid, huge_array and huge_bulk hit one
 * reply; split, delay and silent last until `pass` (setting one replaces
 * the other two). Modifiers may come before the fault's name:
 * `times=N` (a one-shot fault hits N replies, refuse or stall N
 * connections; 0: all),
 * `skip=N` (a one-shot fault lets the first N commands it would hit pass)
 * and `cmd=NAME` (hit only replies to commands named NAME). The connection
 * handshake that clients pipeline first (AUTH, SELECT, CLIENT, HELLO) is
 * exempt from every fault but split unless cmd= names it. REPLY is written
 * without its trailing CRLF; \r, \n and \\ are unescaped.
 */
declare(strict_types=1);

require __DIR__ . '/proxy_control.php';

const RLP_HANDSHAKE = ['AUTH', 'SELECT', 'CLIENT', 'HELLO'];
const RLP_MODES = ['split', 'delay', 'silent'];

/* Where a RESP reply starting at $off ends, or null while it is not all
 * there. Bytes that are not RESP count as one reply up to the end. */
function rlp_reply_end(string $buf, int $off): ?int
{
    $len = strlen($buf);
    if ($off >= $len) {
        return null;
    }
    $eol = strpos($buf, "\r\n", $off);
    if ($eol === false) {
        return null;
    }
    $type = $buf[$off];
    $n = (int) substr($buf, $off + 1, $eol - $off - 1);
    $next = $eol + 2;
    switch ($type) {
        case '+': case '-': case ':': case '_': case ',': case '#': case '(':
            return $next;
        case '$': case '!': case '=':
            if ($n < 0) {
                return $next;
            }
            return $next + $n + 2 <= $len ? $next + $n + 2 : null;
        case '*': case '~': case '>': case '%': case '|':
            $items = $type === '%' || $type === '|' ? 2 * $n : $n;
            if ($type === '|') {
                $items++; /* attributes, then the reply they describe */
            }
            for ($i = 0; $i < $items; $i++) {
                $next = rlp_reply_end($buf, $next);
                if ($next === null) {
                    return null;
                }
            }
            return $next;
    }
    return $len;
}

/* The next whole command in a client's bytes at $off: [end, NAME], or null
 * while it is not all there. Inline commands are understood too. */
function rlp_command(string $buf, int $off): ?array
{
    $eol = strpos($buf, "\r\n", $off);
    if ($eol === false) {
        return null;
    }
    if ($buf[$off] !== '*') {
        $words = preg_split('/\s+/', trim(substr($buf, $off, $eol - $off)));
        return [$eol + 2, strtoupper($words[0] ?? '')];
    }
    $n = (int) substr($buf, $off + 1, $eol - $off - 1);
    $next = $eol + 2;
    $name = '';
    for ($i = 0; $i < $n; $i++) {
        $eol = strpos($buf, "\r\n", $next);
        if ($eol === false) {
            return null;
        }
        $blen = (int) substr($buf, $next + 1, $eol - $next - 1);
        if ($eol + 2 + $blen + 2 > strlen($buf)) {
            return null;
        }
        if ($i === 0) {
            $name = strtoupper(substr($buf, $eol + 2, $blen));
        }
        $next = $eol + 2 + $blen + 2;
    }
    return [$next, $name];
}

/* A reply written on a control line: escapes undone, CRLF added. */
function rlp_reply_arg(string $s): string
{
    $s = strtr($s, ['\\r' => "\r", '\\n' => "\n", '\\\\' => '\\']);
    return str_ends_with($s, "\r\n") ? $s : $s . "\r\n";
}

/* A reply of a type other than the one the server sent. */
function rlp_wrong_type(string $reply): string
{
    return in_array($reply[0] ?? '', ['+', '$', '_'], true) ? ":1\r\n" : "+OK\r\n";
}

/* One client connection and its connection to the server. */
final class RlpConn
{
    public $client;
    public $server;
    public string $cin = '';      /* client bytes not yet parsed into commands */
    public string $sin = '';      /* server bytes not yet parsed into replies */
    public string $sout = '';     /* bytes to write to the server */
    /* Replies owed to the client, in command order: each
     * ['cmd' => NAME, 'data' => ?string, 'at' => ms, 'once' => ?fault, 'mode' => ?fault] */
    public array $owed = [];
    /* What to send the client, in order: each ['data' => string, 'at' => ms,
     * 'piece' => max bytes a write (0: all), 'gap' => ms, 'close' => bool,
     * 'trickle' => ?['chunk' => string, 'every' => ms, 'until' => ms]] */
    public array $out = [];
    public string $wire = '';     /* bytes due now, being written to the client */
    public bool $closing = false; /* close once $wire is written */
    public bool $closed = false;
    /* TLS (--tls): $client is the TLS end of an inner loopback connection,
     * $raw its other end, $outer the client's own connection; the raw
     * bytes are relayed between $outer and $raw. */
    public $outer = null;
    public $raw = null;
    public string $toRaw = '';    /* from the client, to write into $raw */
    public string $toOuter = '';  /* from $raw, to write to the client */
    public bool $shaking = false; /* TLS handshake under way */
    public int $tear = 0;         /* TLS: tear the next batch's last record, its rest this many ms later */
    public ?array $outerLater = null; /* ['data', 'at' (ms)]: raw bytes held back, ahead of any that follow */

    public function __construct($client, $server)
    {
        $this->client = $client;
        $this->server = $server;
    }

    /* Every socket of the connection. */
    public function sockets(): array
    {
        return array_values(array_filter([$this->client, $this->server, $this->outer, $this->raw]));
    }
}

final class RlpProxy
{
    use RlpControl;

    private $listen;
    private $listenUnix = null;   /* --unix: the unix socket listened on as well */
    private array $conns = [];    /* id of the client socket => RlpConn */
    private ?array $once = null;  /* ['name', 'args', 'times', 'skip', 'cmd'] */
    private ?array $mode = null;
    private ?array $refuse = null;
    private array $refusing = []; /* refuse_late: id => [socket, until (ms), text, answered] */
    private ?array $stall = null; /* ['times'] */
    private array $stalled = [];  /* id => socket never answered */
    private $inner = null;        /* --tls: where the TLS ends of the inner connections are accepted */
    private array $stats = ['accepted' => 0, 'refused' => 0, 'stalled' => 0, 'open' => 0, 'commands' => 0,
        'by_command' => [], 'replies' => 0, 'swallowed' => 0, 'intercepted' => 0, 'faulted' => 0];
    private bool $quit = false;

    public function __construct(private string $targetHost, private int $targetPort, int $port, int $controlPort,
                                private float $endAt, bool $watchStdin, private ?string $tlsDir = null,
                                private ?string $unixPath = null)
    {
        if ($unixPath !== null) {
            @unlink($unixPath);
            $this->listenUnix = @stream_socket_server("unix://$unixPath", $errno, $errstr);
            if (!$this->listenUnix) {
                rlp_die("cannot listen on $unixPath: $errstr");
            }
            chmod($unixPath, 0700);
        }
        if ($tlsDir !== null) {
            $ssl = ['local_cert' => "$tlsDir/server.pem", 'local_pk' => "$tlsDir/server.key",
                'verify_peer' => false, 'verify_peer_name' => false];
            $this->inner = @stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr,
                STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
                stream_context_create(['socket' => ['tcp_nodelay' => true], 'ssl' => $ssl]));
            if (!$this->inner) {
                rlp_die("cannot listen on an inner port: $errstr");
            }
        }
        $ctx = stream_context_create(['socket' => ['tcp_nodelay' => true, 'backlog' => 128]]);
        $this->listen = @stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr,
            STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $ctx);
        if (!$this->listen) {
            rlp_die("cannot listen on 127.0.0.1:$port: $errstr");
        }
        $this->listenControl($controlPort, $watchStdin);
    }

    public function run(): void
    {
        while (!$this->quit && rlp_now() < $this->endAt) {
            $read = array_merge(array_filter([$this->listen, $this->listenUnix]), $this->controlSockets());
            $write = [];
            $wake = rlp_now() + 100;
            foreach ($this->refusing as [$s, $until]) {
                $read[] = $s;
                $wake = min($wake, $until);
            }
            foreach ($this->stalled as $s) {
                $read[] = $s;
            }
            foreach ($this->conns as $c) {
                array_push($read, ...$c->sockets());
                if ($c->sout !== '') {
                    $write[] = $c->server;
                }
                if ($c->toRaw !== '') {
                    $write[] = $c->raw;
                }
                if ($c->toOuter !== '') {
                    $write[] = $c->outer;
                }
                if ($c->outerLater !== null) {
                    $wake = min($wake, $c->outerLater['at']);
                }
                if ($c->wire !== '') {
                    $write[] = $c->client;
                } elseif ($c->out) {
                    $wake = min($wake, $c->out[0]['at']);
                }
            }
            $wait = max(0, (int) (($wake - rlp_now()) * 1000));
            $except = null;
            if (@stream_select($read, $write, $except, 0, $wait) === false) {
                usleep(1000); /* a signal: look again */
                continue;
            }
            foreach ($read as $s) {
                if ($s === $this->listen || $s === $this->listenUnix) {
                    $this->accept($s);
                } elseif ($this->serveControl($s)) {
                    /* a control connection's, served */
                } elseif (isset($this->refusing[(int) $s])) {
                    $this->refuseLate($s);
                } elseif (isset($this->stalled[(int) $s])) {
                    $this->readStalled($s);
                } else {
                    $this->readData($s);
                }
            }
            foreach ($write as $s) {
                $this->writeData($s);
            }
            foreach ($this->conns as $c) {
                $this->schedule($c);
                if (!$c->closed) {
                    $this->releaseLater($c);
                }
            }
            foreach ($this->refusing as [$s, $until]) {
                if (rlp_now() >= $until) {
                    $this->refuseLate($s);
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
        foreach ($this->refusing as [$s]) {
            fclose($s);
        }
        foreach ($this->stalled as $s) {
            fclose($s);
        }
        if ($this->inner) {
            fclose($this->inner);
        }
        fclose($this->listen);
        if ($this->listenUnix) {
            fclose($this->listenUnix);
            @unlink($this->unixPath);
        }
    }

    /* A client connects to $listen (the TCP or the unix socket). */
    private function accept($listen): void
    {
        $client = @stream_socket_accept($listen, 0);
        if (!$client) {
            return;
        }
        if ($this->refuse !== null) {
            if ($this->refuse['late']) {
                $this->refusing[(int) $client] = [$client, rlp_now() + 200, $this->refuse['text'], false];
            } else {
                $this->refuseNow($client, $this->refuse['text']);
            }
            $this->stats['refused']++;
            if ($this->refuse['times'] !== 0 && --$this->refuse['times'] === 0) {
                $this->refuse = null;
            }
            return;
        }
        if ($this->stall !== null) {
            stream_set_blocking($client, false);
            $this->stalled[(int) $client] = $client;
            $this->stats['stalled']++;
            if ($this->stall['times'] !== 0 && --$this->stall['times'] === 0) {
                $this->stall = null;
            }
            return;
        }
        $server = @stream_socket_client("tcp://{$this->targetHost}:{$this->targetPort}", $errno, $errstr, 2,
            STREAM_CLIENT_CONNECT, stream_context_create(['socket' => ['tcp_nodelay' => true]]));
        if (!$server) {
            fclose($client);
            return;
        }
        $outer = $raw = null;
        if ($this->inner) {
            /* The TLS session runs on an inner connection: $client becomes
             * its TLS end, the client's own connection is relayed to $raw. */
            $outer = $client;
            $raw = @stream_socket_client('tcp://' . stream_socket_get_name($this->inner, false), $errno, $errstr, 2,
                STREAM_CLIENT_CONNECT, stream_context_create(['socket' => ['tcp_nodelay' => true]]));
            $client = $raw ? @stream_socket_accept($this->inner, 2) : false;
            if (!$client) {
                foreach ([$outer, $raw, $server] as $s) {
                    $s && fclose($s);
                }
                return;
            }
        }
        foreach (array_filter([$client, $server, $outer, $raw]) as $s) {
            stream_set_blocking($s, false);
            stream_set_read_buffer($s, 0);
            stream_set_write_buffer($s, 0);
        }
        $c = new RlpConn($client, $server);
        $c->outer = $outer;
        $c->raw = $raw;
        $c->shaking = $outer !== null;
        $this->conns[(int) $client] = $c;
        $this->stats['accepted']++;
        $this->stats['open']++;
    }

    /* A stalled connection: what the client sends is dropped; its close is
     * followed. */
    private function readStalled($s): void
    {
        $data = @fread($s, 65536);
        if ($data === false || ($data === '' && feof($s))) {
            unset($this->stalled[(int) $s]);
            fclose($s);
        }
    }

    /* --tls: one step of the server side of the handshake, on the TLS end
     * (its bytes come and go through the relay). */
    private function handshake(RlpConn $c): void
    {
        $r = @stream_socket_enable_crypto($c->client, true, STREAM_CRYPTO_METHOD_TLS_SERVER);
        if ($r === true) {
            $c->shaking = false;
            $this->pump($c);
        } elseif ($r === false) {
            $this->close($c);
        }
    }

    /* --tls: relays raw bytes, the client's to the TLS end and back. */
    private function relay(RlpConn $c, $s): void
    {
        $data = @fread($s, 65536);
        if ($data === false || ($data === '' && feof($s))) {
            $this->close($c);
            return;
        }
        if ($s === $c->outer) {
            $c->toRaw .= $data;
            $this->writeData($c->raw);
            return;
        }
        if ($c->outerLater !== null) {
            $c->outerLater['data'] .= $data;
            return;
        }
        if ($c->tear > 0) {
            /* The batch's last record: its header and first bytes now, the
             * rest later. */
            $last = null;
            for ($off = 0; $off + 5 <= strlen($data); $off += 5 + unpack('n', $data, $off + 3)[1]) {
                $last = $off;
            }
            if ($last !== null && $last + 7 < strlen($data)) {
                $c->outerLater = ['data' => substr($data, $last + 7), 'at' => rlp_now() + $c->tear];
                $data = substr($data, 0, $last + 7);
            }
            $c->tear = 0;
        }
        $c->toOuter .= $data;
        $this->writeData($c->outer);
    }

    /* TLS: raw bytes held back whose time has come. */
    private function releaseLater(RlpConn $c): void
    {
        if ($c->outerLater !== null && $c->outerLater['at'] <= rlp_now()) {
            $c->toOuter .= $c->outerLater['data'];
            $c->outerLater = null;
            $this->writeData($c->outer);
        }
    }

    /* What a redis-server at maxclients does: the error, then close(). */
    private function refuseNow($client, string $text): void
    {
        unset($this->refusing[(int) $client]);
        @fwrite($client, $text . "\r\n");
        fclose($client);
    }

    /* refuse_late: first the refusal, in reply to what the client sent;
     * then the close, once it sends more (left unread: a reset). */
    private function refuseLate($client): void
    {
        [, , $text, $answered] = $this->refusing[(int) $client];
        if ($answered) {
            unset($this->refusing[(int) $client]);
            fclose($client);
            return;
        }
        stream_set_blocking($client, false);
        @fread($client, 65536);
        @fwrite($client, $text . "\r\n");
        $this->refusing[(int) $client] = [$client, rlp_now() + 200, $text, true];
    }

    private function close(RlpConn $c): void
    {
        if (!isset($this->conns[(int) $c->client])) {
            return;
        }
        unset($this->conns[(int) $c->client]);
        foreach ($c->sockets() as $s) {
            fclose($s);
        }
        $c->closed = true;
        $this->stats['open']--;
    }

    private function connOf($s): ?RlpConn
    {
        if (isset($this->conns[(int) $s])) {
            return $this->conns[(int) $s];
        }
        foreach ($this->conns as $c) {
            if ($c->server === $s || $c->outer === $s || $c->raw === $s) {
                return $c;
            }
        }
        return null;
    }

    private function readData($s): void
    {
        $c = $this->connOf($s);
        if ($c === null) {
            return;
        }
        if ($s === $c->outer || $s === $c->raw) {
            $this->relay($c, $s);
            return;
        }
        if ($c->shaking && $s === $c->client) {
            $this->handshake($c);
            return;
        }
        $data = @fread($s, 65536);
        if ($data === false || ($data === '' && feof($s))) {
            /* Either side closed: so do we, with whatever was owed. */
            $this->close($c);
            return;
        }
        if ($c->outer && $s === $c->client) {
            /* A TLS read returns one record: take all there is. */
            while (($more = @fread($s, 65536)) !== false && $more !== '') {
                $data .= $more;
            }
        }
        if ($s === $c->client) {
            $c->cin .= $data;
            $this->commands($c);
        } else {
            $c->sin .= $data;
            $this->replies($c);
        }
    }

    private function writeData($s): void
    {
        $c = $this->connOf($s);
        if ($c === null) {
            return;
        }
        if ($s === $c->outer || $s === $c->raw) {
            $buf = $s === $c->outer ? 'toOuter' : 'toRaw';
            $n = @fwrite($s, $c->$buf);
            if ($n === false) {
                $this->close($c);
                return;
            }
            $c->$buf = (string) substr($c->$buf, $n);
            return;
        }
        if ($s === $c->client && $c->shaking) {
            return;
        }
        if ($s === $c->server) {
            $n = @fwrite($s, $c->sout);
            if ($n === false) {
                $this->close($c);
                return;
            }
            $c->sout = (string) substr($c->sout, $n);
            return;
        }
        $n = @fwrite($s, $c->wire);
        if ($n === false) {
            $this->close($c);
            return;
        }
        $c->wire = (string) substr($c->wire, $n);
        if ($c->wire === '' && $c->closing) {
            $this->close($c);
        }
    }

    /* Whether a fault (once or mode) applies to a command named $cmd. */
    private static function applies(?array $f, string $cmd): bool
    {
        if ($f === null) {
            return false;
        }
        if ($f['cmd'] !== null) {
            return $f['cmd'] === $cmd;
        }
        return $f['name'] === 'split' || !in_array($cmd, RLP_HANDSHAKE, true);
    }

    /* Parses the client's commands, decides the fault of each, and passes
     * them on (or answers them in the server's place). */
    private function commands(RlpConn $c): void
    {
        $off = 0;
        while ($off < strlen($c->cin) && ($cmd = rlp_command($c->cin, $off)) !== null) {
            [$end, $name] = $cmd;
            $bytes = substr($c->cin, $off, $end - $off);
            $off = $end;
            $this->stats['commands']++;
            $this->stats['by_command'][$name] = ($this->stats['by_command'][$name] ?? 0) + 1;
            $once = null;
            if (self::applies($this->once, $name) && $this->once['skip'] > 0) {
                $this->once['skip']--;
            } elseif (self::applies($this->once, $name)) {
                $once = $this->once;
                if ($this->once['times'] !== 0 && --$this->once['times'] === 0) {
                    $this->once = null;
                }
                $this->stats['faulted']++;
            }
            $mode = self::applies($this->mode, $name) ? $this->mode : null;
            $owed = ['cmd' => $name, 'data' => null, 'at' => 0.0, 'once' => $once, 'mode' => $mode];
            if ($once !== null && $once['name'] === 'error') {
                $owed['data'] = '-' . $once['args'] . "\r\n";
                $owed['at'] = rlp_now();
                $owed['once'] = null;
                $this->stats['intercepted']++;
            } else {
                $c->sout .= $bytes;
            }
            $c->owed[] = $owed;
        }
        $c->cin = (string) substr($c->cin, $off);
        $this->pump($c);
    }

    /* Matches the server's replies with the commands they answer. */
    private function replies(RlpConn $c): void
    {
        $off = 0;
        while (($end = rlp_reply_end($c->sin, $off)) !== null) {
            $reply = substr($c->sin, $off, $end - $off);
            $off = $end;
            $matched = false;
            foreach ($c->owed as &$o) {
                if ($o['data'] === null) {
                    $o['data'] = $reply;
                    $o['at'] = rlp_now();
                    $matched = true;
                    break;
                }
            }
            unset($o);
            if (!$matched) {
                /* Nobody asked (a push message?): pass it on as it is. */
                $c->owed[] = ['cmd' => '', 'data' => $reply, 'at' => rlp_now(), 'once' => null, 'mode' => null];
            }
        }
        $c->sin = (string) substr($c->sin, $off);
        $this->pump($c);
    }

    /* Turns the replies owed, in order, into what the client gets. */
    private function pump(RlpConn $c): void
    {
        while ($c->owed && $c->owed[0]['data'] !== null) {
            $o = array_shift($c->owed);
            $data = $o['data'];
            $at = $o['at'];
            $piece = 0;
            $gap = 0.0;
            if ($o['mode'] !== null) {
                switch ($o['mode']['name']) {
                    case 'silent':
                        $this->stats['swallowed']++;
                        continue 2;
                    case 'delay':
                        $at += (float) $o['mode']['args'][0];
                        break;
                    case 'split':
                        $piece = $o['mode']['args'][0];
                        $gap = (float) $o['mode']['args'][1];
                        break;
                }
            }
            $item = fn(string $d, float $t, bool $close = false, ?array $trickle = null, bool $apart = false,
                       int $torn = 0) =>
                ['data' => $d, 'at' => $t, 'piece' => $piece, 'gap' => $gap, 'close' => $close, 'trickle' => $trickle,
                 'apart' => $apart, 'torn' => $torn];
            $this->stats['replies']++;
            $once = $o['once'];
            switch ($once['name'] ?? 'pass') {
                case 'pass':
                    $c->out[] = $item($data, $at);
                    break;
                case 'extra':
                    [$extra, $after, $apart, $torn] = $once['args'];
                    if ($torn > 0 && $this->inner) {
                        $c->out[] = $item($data, $at);
                        $c->out[] = $item($extra, $at, false, null, true, $torn);
                    } elseif ($torn > 0) {
                        $c->out[] = $item($data, $at);
                        $c->out[] = $item(substr($extra, 0, 1), $at, false, null, true);
                        $c->out[] = $item((string) substr($extra, 1), $at + $torn);
                    } elseif ($after > 0 || $apart) {
                        $c->out[] = $item($data, $at);
                        $c->out[] = $item($extra, $at + $after, false, null, $apart);
                    } else {
                        $c->out[] = $item($data . $extra, $at);
                    }
                    break;
                case 'twice':
                    $c->out[] = $item($data, $at);
                    $c->out[] = $item($data, $at, false, null, true);
                    break;
                case 'wrongtype':
                    $c->out[] = $item($once['args'] ?? rlp_wrong_type($data), $at);
                    break;
                case 'close_after':
                    $c->out[] = $item($data, $at, true);
                    break;
                case 'close_mid':
                    $c->out[] = $item(substr($data, 0, max(1, intdiv(strlen($data), 2))), $at, true);
                    break;
                case 'huge_array':
                    $c->out[] = $item("*999999999\r\n", $at);
                    $c->out[] = $item('', $at + 10, false, ['chunk' => ":1\r\n", 'every' => 10, 'until' => $at + 30000]);
                    break;
                case 'huge_bulk':
                    $c->out[] = $item("\$999999999\r\n", $at);
                    $c->out[] = $item('', $at + 10, false,
                        ['chunk' => str_repeat('x', 512), 'every' => 10, 'until' => $at + 30000]);
                    break;
            }
        }
    }

    /* Moves what is due into the wire and writes it: whole items at once, a
     * split item one piece per write, a trickle one chunk per interval; an
     * item due with the one before and marked apart goes in a write of its
     * own right behind it (before the relay of --tls runs again). */
    private function schedule(RlpConn $c): void
    {
        if ($c->shaking) {
            return;
        }
        do {
            $this->scheduleOne($c);
        } while (!$c->closed && $c->wire === '' && !$c->closing && $c->out && $c->out[0]['at'] <= rlp_now()
                 && ($c->out[0]['apart'] || ($this->inner && $c->out[0]['piece'] > 0 && $c->out[0]['gap'] == 0.0)));
    }

    private function scheduleOne(RlpConn $c): void
    {
        $now = rlp_now();
        while ($c->wire === '' && !$c->closing && $c->out && $c->out[0]['at'] <= $now) {
            $it = &$c->out[0];
            if ($it['trickle'] !== null) {
                if ($now > $it['trickle']['until']) {
                    array_shift($c->out);
                    continue;
                }
                $c->wire = $it['trickle']['chunk'];
                $it['at'] = $now + $it['trickle']['every'];
                unset($it);
                break;
            }
            if ($it['piece'] > 0 && strlen($it['data']) > 1) {
                $n = min(strlen($it['data']), random_int(1, $it['piece']));
                $c->wire = substr($it['data'], 0, $n);
                $it['data'] = (string) substr($it['data'], $n);
                $it['at'] = $now + $it['gap'];
                if ($it['data'] === '') {
                    $c->closing = $it['close'];
                    unset($it);
                    array_shift($c->out);
                } else {
                    unset($it);
                }
                break;
            }
            $c->wire .= $it['data'];
            $c->tear = $it['torn'] ?? 0;
            $c->closing = $it['close'];
            unset($it);
            array_shift($c->out);
            if ($c->closing) {
                $c->out = [];
            }
        }
        if ($c->wire !== '') {
            $this->writeData($c->client);
        } elseif ($c->closing) {
            $this->close($c);
        }
    }

    /* Runs one control command; returns the answer line. */
    private function command(string $line): string
    {
        $words = preg_split('/ +/', trim($line));
        $mods = ['times' => 1, 'skip' => 0, 'cmd' => null];
        while ($words && preg_match('/^(times|skip|cmd)=(.*)$/D', $words[0], $m)) {
            array_shift($words);
            $mods[$m[1]] = $m[1] === 'cmd' ? strtoupper($m[2]) : max(0, (int) $m[2]);
        }
        $name = strtolower((string) array_shift($words));
        $rest = implode(' ', $words);
        switch ($name) {
            case 'ping':
                return 'OK pong';
            case 'quit':
                $this->quit = true;
                return 'OK';
            case 'stats':
                return 'OK ' . json_encode($this->stats, JSON_FORCE_OBJECT);
            case 'drop':
                foreach ($this->conns as $c) {
                    $this->close($c);
                }
                foreach ($this->stalled as $s) {
                    fclose($s);
                }
                $this->stalled = [];
                return 'OK';
            case 'pass':
                $this->once = $this->mode = $this->refuse = $this->stall = null;
                return 'OK';
            case 'refuse':
            case 'refuse_late':
                if ($rest === '') {
                    return "ERR $name needs the error text";
                }
                $this->refuse = ['text' => '-' . $rest, 'times' => $mods['times'], 'late' => $name === 'refuse_late'];
                return 'OK';
            case 'extra':
                $after = 0;
                $apart = false;
                $torn = 0;
                while ($words && preg_match('/^(after=(\d+)|apart|torn=(\d+))$/D', end($words), $m)) {
                    array_pop($words);
                    if ($m[1] === 'apart') {
                        $apart = true;
                    } elseif (str_starts_with($m[1], 'torn')) {
                        $torn = max(1, (int) $m[3]);
                    } else {
                        $after = (int) $m[2];
                    }
                }
                $args = [rlp_reply_arg($words ? implode(' ', $words) : '+OK'), $after, $apart, $torn];
                break;
            case 'stall':
                $this->stall = ['times' => $mods['times']];
                return 'OK';
            case 'wrongtype':
                $args = $rest === '' ? null : rlp_reply_arg($rest);
                break;
            case 'error':
                if ($rest === '') {
                    return 'ERR error needs the error text';
                }
                $args = $rest;
                break;
            case 'twice':
            case 'close_after':
            case 'close_mid':
            case 'huge_array':
            case 'huge_bulk':
            case 'silent':
                $args = null;
                break;
            case 'split':
                $args = [max(1, (int) ($words[0] ?? 3)), max(0.0, (float) ($words[1] ?? 1))];
                break;
            case 'delay':
                if (!isset($words[0]) || !preg_match('/^\d+$/D', $words[0])) {
                    return 'ERR delay needs milliseconds';
                }
                $args = [(int) $words[0]];
                break;
            default:
                return 'ERR unknown command: ' . $name;
        }
        $fault = ['name' => $name, 'args' => $args, 'times' => $mods['times'], 'skip' => $mods['skip'],
                  'cmd' => $mods['cmd']];
        if (in_array($name, RLP_MODES, true)) {
            $this->mode = $fault;
        } else {
            $this->once = $fault;
        }
        return 'OK';
    }
}

/* The command line. */
$opt = getopt('', ['target:', 'listen:', 'control:', 'max-seconds:', 'watch-stdin', 'pidfile:', 'tls:', 'unix:']);
if (!isset($opt['target']) || !preg_match('/^(127\.0\.0\.1|localhost|\[::1\]):(\d+)$/D', (string) $opt['target'], $m)) {
    rlp_die('usage: proxy.php --target 127.0.0.1:PORT [--listen PORT] [--control PORT] [--max-seconds N]'
        . ' [--tls DIR] [--unix PATH] [--watch-stdin] [--pidfile FILE] (the target must be on loopback)');
}
$host = $m[1] === '[::1]' ? '[::1]' : '127.0.0.1';
$maxSeconds = min(600, max(1, (int) ($opt['max-seconds'] ?? 120)));
$proxy = new RlpProxy($host, (int) $m[2], (int) ($opt['listen'] ?? 0), (int) ($opt['control'] ?? 0),
    rlp_now() + $maxSeconds * 1000, isset($opt['watch-stdin']), isset($opt['tls']) ? (string) $opt['tls'] : null,
    isset($opt['unix']) ? (string) $opt['unix'] : null);
rlp_serve($proxy, isset($opt['pidfile']) ? (string) $opt['pidfile'] : null);
