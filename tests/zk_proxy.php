<?php
/*
 * A proxy in front of a ZooKeeper server for zk_create_reply_lost.phpt:
 *
 *   php -n tests/zk_proxy.php LISTEN_PORT TARGET_PORT MAX_SECONDS [TIMES]
 *
 * It forwards both directions, reading them as ZooKeeper frames (a 4-byte
 * big-endian length, then the frame; after a connection's first request,
 * its handshake, each request starts with its xid and its operation code,
 * each reply with the xid it answers). The first TIMES (default 1) creates
 * of an ephemeral lock node ("/lock-" in its path), one per connection, go
 * to the server, but their replies are swallowed and the client's connection
 * closed, as a network failure would do after the server carried the
 * request out (or refused it). After that everything passes through
 * untouched. Prints "READY" once it listens and "LOST <xid>" on standard
 * error for each reply it swallowed. Ends after MAX_SECONDS,
 * or when its standard input closes.
 */
[, $listen, $target, $maxSeconds] = $argv;
$times = (int) ($argv[4] ?? 1);
$server = stream_socket_server("tcp://127.0.0.1:$listen", $errno, $errstr);
if (!$server) {
    fwrite(STDERR, "cannot listen: $errstr\n");
    exit(1);
}
echo "READY\n";
fflush(STDOUT);

const OP_CREATE = 1;
$pairs = [];      /* id => [client, server, client buffer, server buffer, handshake seen, xid to swallow] */
$lostCount = 0;   /* replies swallowed so far */
$end = time() + (int) $maxSeconds;

/* Splits complete frames off the front of $buf. */
function frames(string &$buf): array
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

while (time() < $end) {
    $read = [$server, STDIN];
    foreach ($pairs as $p) {
        $read[] = $p[0];
        $read[] = $p[1];
    }
    $w = $e = null;
    if (@stream_select($read, $w, $e, 0, 200000) < 1) {
        continue;
    }
    foreach ($read as $s) {
        if ($s === STDIN) {
            if (fread(STDIN, 1024) === '' && feof(STDIN)) {
                exit(0);
            }
            continue;
        }
        if ($s === $server) {
            $c = stream_socket_accept($server);
            $t = stream_socket_client("tcp://127.0.0.1:$target", $errno, $errstr, 5);
            if ($c && $t) {
                $pairs[(int) $c] = [$c, $t, '', '', false, null];
            } elseif ($c) {
                fclose($c);
            }
            continue;
        }
        foreach ($pairs as $id => &$p) {
            $fromClient = $s === $p[0];
            if (!$fromClient && $s !== $p[1]) {
                continue;
            }
            $data = fread($s, 65536);
            if ($data === '' || $data === false) {
                fclose($p[0]);
                fclose($p[1]);
                unset($pairs[$id]);
                break;
            }
            $lost = false;
            if ($fromClient) {
                $p[2] .= $data;
                foreach (frames($p[2]) as $f) {
                    if (!$p[4]) {
                        $p[4] = true; /* the handshake */
                    } elseif ($lostCount < $times && $p[5] === null && unpack('N', $f, 8)[1] === OP_CREATE
                              && str_contains($f, '/lock-')) {
                        $p[5] = unpack('N', $f, 4)[1];
                    }
                    fwrite($p[1], $f);
                }
            } else {
                $p[3] .= $data;
                foreach (frames($p[3]) as $f) {
                    if ($p[5] !== null && unpack('N', $f, 4)[1] === $p[5]) {
                        fwrite(STDERR, "LOST {$p[5]}\n");
                        $lostCount++;
                        $lost = true;
                        break;
                    }
                    fwrite($p[0], $f);
                }
            }
            if ($lost) {
                fclose($p[0]);
                fclose($p[1]);
                unset($pairs[$id]);
            }
            break;
        }
        unset($p);
    }
}
