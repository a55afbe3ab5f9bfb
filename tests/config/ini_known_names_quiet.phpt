--TEST--
Every known redislock.* INI name, given at startup, is taken without a warning (and a name of another extension that starts alike is left alone)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
redislock.servers=redis://127.0.0.1:6390
redislock.prefix=rltest:
redislock.ttl=5000
redislock.connect_timeout=500
redislock.read_timeout=500
redislock.quorum_timeout=50
redislock.persistent=0
redislock.auto_release=1
redislock.fencing=0
redislock.fair=0
redislock.tls_ca=
redislock.tls_cert=
redislock.tls_key=
redislock.tls_verify=1
redislock.sync_replicas=0
redislockx.servers=1
--FILE--
<?php
echo "no warning\n";
var_dump(ini_get('redislock.servers'), ini_get('redislock.ttl'), ini_get('redislock.persistent'));
?>
--EXPECT--
no warning
string(22) "redis://127.0.0.1:6390"
string(4) "5000"
string(1) "0"
