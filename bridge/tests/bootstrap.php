<?php

/*
 * Autoloading for the suites: Composer's when the library was installed with its dev
 * dependencies, otherwise Debian's (php-symfony-lock, php-laravel-framework, phpunit under
 * /usr/share/php) plus the library's own PSR-4 map. The test server comes from the
 * environment scripts/test.sh sets (tests/config.inc of the extension).
 */

declare(strict_types=1);

if (is_file(__DIR__ . '/../vendor/autoload.php')) {
    require_once __DIR__ . '/../vendor/autoload.php';
} else {
    require_once 'Symfony/Component/Lock/autoload.php';
    require_once 'Illuminate/Cache/autoload.php';
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
