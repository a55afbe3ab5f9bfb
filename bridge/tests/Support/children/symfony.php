<?php

/*
 * A second process using the Symfony store. argv: mode, lock name[, serialized key (base64)].
 *   take      takes the lock (a 10 s Lock, not released on destruction) and prints
 *             "held <serialized key>", then obeys lines: "release" (releases, prints "released"),
 *             "release-later" (waits 200 ms first), "end" (ends the process still holding it)
 *   continue  unserializes the key and continues its hold: prints what isAcquired() says,
 *             refreshes it to 5 s, releases it
 */

declare(strict_types=1);

use RedisLock\Bridge\Symfony\RedisLockStore;
use RedisLock\Bridge\Tests\Support\Server;
use Symfony\Component\Lock\LockFactory;

require __DIR__ . '/../../bootstrap.php';

[, $mode, $name] = $argv;
$factory = new LockFactory(new RedisLockStore(Server::options()));

if ($mode === 'continue') {
    $lock = $factory->createLockFromKey(unserialize(base64_decode($argv[3])), null, false);
    echo $lock->isAcquired() ? "acquired\n" : "not acquired\n";
    $lock->refresh(5.0);
    echo "refreshed\n";
    $lock->release();
    echo "released\n";
    exit(0);
}

$key = new Symfony\Component\Lock\Key($name);
$lock = $factory->createLockFromKey($key, 10.0, false);
if (!$lock->acquire()) {
    exit(3);
}
echo 'held ', base64_encode(serialize($key)), "\n";
while (($line = fgets(STDIN)) !== false) {
    $line = trim($line);
    if ($line === 'end') {
        exit(0);
    }
    if ($line === 'release-later') {
        usleep(200000);
    }
    $lock->release();
    echo "released\n";
}
