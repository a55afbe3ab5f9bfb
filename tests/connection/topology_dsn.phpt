--TEST--
redis-sentinel:// and redis-cluster:// DSNs (and their TLS forms): what is malformed throws ValueError naming it; in a list a comma starts the next DSN only before a scheme; phpinfo writes them back with the passwords masked
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
redislock.servers="redis-sentinel://:DataPw@10.0.0.1,10.0.0.2:26380/2?master=main&sentinel_password=SentPw,rediss-cluster://u:ClPw@10.0.1.1:7000,10.0.1.2:7001?tls_verify=0,redis://10.0.2.1"
--FILE--
<?php
$dsns = [
    'sentinel without master' => 'redis-sentinel://10.0.0.1:26379',
    'sentinel, empty host' => 'redis-sentinel://10.0.0.1,?master=m',
    'sentinel, tls_* without TLS' => 'redis-sentinel://10.0.0.1?master=m&tls_verify=0',
    'sentinel, master twice' => 'redis-sentinel://10.0.0.1?master=m&master=n',
    'sentinel, unknown parameter' => 'rediss-sentinel://10.0.0.1?master=m&x=1',
    'cluster with a query' => 'redis-cluster://10.0.0.1:7000?master=m',
    'cluster, database 1' => 'redis-cluster://10.0.0.1:7000/1',
    'cluster, bad port' => 'redis-cluster://10.0.0.1:7000,10.0.0.2:0',
    '17 seeds' => 'redis-cluster://' . implode(',', array_map(fn ($i) => "10.0.0.$i", range(1, 17))),
    'the same cluster twice' => 'redis-cluster://10.0.0.1:7000,redis-cluster://10.0.0.1:7000,10.0.0.9',
];
foreach ($dsns as $what => $dsn) {
    try {
        new RedisLock('x', ['servers' => $dsn]);
        echo "$what: accepted\n";
    } catch (ValueError $e) {
        echo "$what: ", preg_replace('/^.*is not a valid DSN list: /', '', $e->getMessage()), "\n";
    }
}
ob_start();
phpinfo(INFO_MODULES);
preg_match('/^redislock\.servers => (.*) => .*$/m', ob_get_clean(), $m);
echo $m[1], "\n";
?>
--EXPECT--
sentinel without master: server 1: redis-sentinel:// DSNs need ?master=NAME
sentinel, empty host: server 1: the host is empty
sentinel, tls_* without TLS: server 1: unknown query parameter (redis-sentinel:// takes master and sentinel_password)
sentinel, master twice: server 1: the query parameter master is given twice
sentinel, unknown parameter: server 1: unknown query parameter (rediss-sentinel:// takes master, sentinel_password, tls_verify, tls_ca, tls_cert, tls_key)
cluster with a query: server 1: redis-cluster:// DSNs take no query
cluster, database 1: server 1: a Redis Cluster has database 0 only
cluster, bad port: server 1: the port must be a number between 1 and 65535
17 seeds: server 1: at most 16 seed addresses are supported
the same cluster twice: servers 1 and 2 are the same server (cluster of 10.0.0.1:7000)
redis-sentinel://:***@10.0.0.1:26379,10.0.0.2:26380/2?master=main&sentinel_password=***,rediss-cluster://u:***@10.0.1.1:7000,10.0.1.2:7001?tls_verify=0,redis://10.0.2.1:6379
