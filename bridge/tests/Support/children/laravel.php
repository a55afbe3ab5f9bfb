<?php

/*
 * A second process using the Laravel provider. argv: lock name.
 * Takes the lock for 10 s and prints "held <owner>", then obeys lines: "release" (releases,
 * prints "released"), "release-later" (waits 200 ms first), "end" (ends the process still
 * holding it).
 */

declare(strict_types=1);

use RedisLock\Bridge\Laravel\RedisLockProvider;
use RedisLock\Bridge\Tests\Support\Server;

require __DIR__ . '/../../bootstrap.php';

$lock = (new RedisLockProvider(Server::options()))->lock($argv[1], 10);
if (!$lock->get()) {
    exit(3);
}
echo 'held ', $lock->owner(), "\n";
while (($line = fgets(STDIN)) !== false) {
    $line = trim($line);
    if ($line === 'end') {
        exit(0);
    }
    if ($line === 'release-later') {
        usleep(200000);
    }
    echo $lock->release() ? "released\n" : "not released\n";
}
