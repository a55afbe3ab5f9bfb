--TEST--
rediss://: a certificate from an unknown CA, or for another host name, is refused with the reason; tls_verify=0 (per DSN or option) accepts it; no password in any message
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../tls.inc';
$dir = rl_tls_certs();
$good = new RLTlsServer();
$other = new RLTlsServer('no', 'other'); /* signed by the CA, but for elsewhere.invalid */
$pw = 'TlsSecret42';
$good->client()->cmd('CONFIG', 'SET', 'requirepass', $pw);
$other->client()->cmd('CONFIG', 'SET', 'requirepass', $pw);

function attempt(string $what, string $dsn, array $options = []): void
{
    global $pw;
    try {
        $l = new RedisLock('tls:verify', ['servers' => $dsn] + $options);
        $got = var_export($l->acquire(), true);
        echo "$what: $got ", var_export($l->release(), true), "\n";
    } catch (RedisLockException $e) {
        $m = $e->getMessage();
        echo "$what: ", get_class($e), ' ', str_contains($m, $pw) ? 'LEAKED ' : '', preg_replace('/\d+\.\d+\.\d+\.\d+:\d+|localhost:\d+/', 'ADDR', $m), "\n";
    }
}

$ca = ['tls_ca' => "$dir/ca.pem"];
$wrong = ['tls_ca' => "$dir/wrongca.pem"];
attempt('right CA, password', str_replace('rediss://', "rediss://:$pw@", $good->dsn()), $ca);
attempt('wrong CA', str_replace('rediss://', "rediss://:$pw@", $good->dsn()), $wrong);
attempt('wrong CA in the DSN', str_replace('rediss://', "rediss://:$pw@", $good->dsn('127.0.0.1', '?tls_ca=' . rawurlencode("$dir/wrongca.pem"))), $ca);
/* Reading the system's store takes long under ASan: a generous connect_timeout. */
attempt('system store', str_replace('rediss://', "rediss://:$pw@", $good->dsn()), ['connect_timeout' => 10000]);
attempt('other name, by host', str_replace('rediss://', "rediss://:$pw@", $other->dsn('localhost')), $ca);
attempt('other name, by IP', str_replace('rediss://', "rediss://:$pw@", $other->dsn()), $ca);
attempt('tls_verify=0 in the DSN', str_replace('rediss://', "rediss://:$pw@", $other->dsn('localhost', '?tls_verify=0')), $wrong);
attempt('tls_verify option false', str_replace('rediss://', "rediss://:$pw@", $good->dsn()), $wrong + ['tls_verify' => false]);
attempt('missing CA file', str_replace('rediss://', "rediss://:$pw@", $good->dsn()), ['tls_ca' => "$dir/none.pem"]);
?>
--EXPECT--
right CA, password: true true
wrong CA: RedisLock\ConnectionException acquire failed: cannot connect to ADDR: TLS certificate verify failed: self-signed certificate in certificate chain
wrong CA in the DSN: RedisLock\ConnectionException acquire failed: cannot connect to ADDR: TLS certificate verify failed: self-signed certificate in certificate chain
system store: RedisLock\ConnectionException acquire failed: cannot connect to ADDR: TLS certificate verify failed: self-signed certificate in certificate chain
other name, by host: RedisLock\ConnectionException acquire failed: cannot connect to ADDR: TLS certificate verify failed: hostname mismatch (the certificate is for another host name)
other name, by IP: RedisLock\ConnectionException acquire failed: cannot connect to ADDR: TLS certificate verify failed: IP address mismatch (the certificate is for another host name)
tls_verify=0 in the DSN: true true
tls_verify option false: true true
missing CA file: RedisLock\ConnectionException acquire failed: cannot connect to ADDR: cannot load the CA bundle (tls_ca): system lib
