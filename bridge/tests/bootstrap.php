<?php

/*
 * Autoloading for the suites: Composer's when the library was installed with its dev
 * dependencies, otherwise Debian's (php-symfony-lock, php-laravel-framework, phpunit under
 * /usr/share/php) plus the library's own PSR-4 map; BRIDGE_PSR4 puts checkouts of other
 * versions in front of either. The test server comes from the
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

if (is_file(__DIR__ . '/../vendor/autoload.php')) {
    require_once __DIR__ . '/../vendor/autoload.php';
} else {
    require_once 'Symfony/Component/Lock/autoload.php';
    require_once 'Symfony/Component/Semaphore/autoload.php';
    require_once 'Illuminate/Cache/autoload.php';
    require_once 'Illuminate/Bus/autoload.php';
    spl_autoload_register(static function (string $class): void {
        $roots = ['RedisLock\\Bridge\\Tests\\' => __DIR__ . '/', 'RedisLock\\Bridge\\' => __DIR__ . '/../src/'];
        foreach ($roots as $prefix => $dir) {
            if (str_starts_with($class, $prefix)) {
                $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
                if (is_file($file)) {
                    require $file;
                }

                return;
            }
        }
    });
}
require_once __DIR__ . '/../../tests/config.inc';
