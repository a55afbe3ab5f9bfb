<?php

/*
 * Autoloading for the suites (autoload.php: Composer's vendor/ or Debian's packages, and the
 * library's own PSR-4 map); BRIDGE_PSR4 puts checkouts of other versions in front of either.
 * The test server comes from the
 * environment scripts/test.sh sets (tests/config.inc of the extension).
 */

declare(strict_types=1);

// Checkouts of other versions of the frameworks, put in front of the installed ones:
// BRIDGE_PSR4='Symfony\Component\Lock\=/src/lock;Illuminate\Cache\=/src/cache' (PSR-4 prefix=dir).
foreach (array_filter(explode(';', (string) getenv('BRIDGE_PSR4'))) as $map) {
    [$prefix, $dir] = explode('=', $map, 2) + [1 => ''];
    spl_autoload_register(static function (string $class) use ($prefix, $dir): void {
        if (str_starts_with($class, $prefix)) {
            $file = $dir . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) {
                require $file;
            }
        }
    }, true, true);
}

require_once __DIR__ . '/autoload.php';
bridge_autoload();
// Before 7.4 the store test case was in Tests/Store/ (a checkout of those versions).
if (!class_exists(Symfony\Component\Lock\Test\AbstractStoreTestCase::class)
    && class_exists(Symfony\Component\Lock\Tests\Store\AbstractStoreTestCase::class)) {
    class_alias(Symfony\Component\Lock\Tests\Store\AbstractStoreTestCase::class, Symfony\Component\Lock\Test\AbstractStoreTestCase::class);
}
require_once __DIR__ . '/../../tests/config.inc';
