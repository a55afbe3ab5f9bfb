<?php

/*
 * Where the frameworks and PHPUnit come from, for the suites and for the phpts that run them:
 * REDISLOCK_BRIDGE_VENDOR (a Composer vendor/ directory: scripts/test.sh sets it to the one
 * scripts/build/frameworks.sh installs when REDISLOCK_FRAMEWORKS=current), else this library's
 * own vendor/ when it was installed with its dev dependencies, else Debian's packages
 * (phpunit, php-symfony-lock, php-symfony-semaphore, php-laravel-framework under /usr/share/php).
 * The library's own classes are autoloaded from src/ and tests/ in every case.
 */

declare(strict_types=1);

/** The vendor/ directory the suites load, or null for Debian's packages. */
function bridge_vendor(): ?string
{
    $vendor = (string) getenv('REDISLOCK_BRIDGE_VENDOR');
    if ($vendor !== '') {
        return $vendor;
    }

    return is_file(__DIR__ . '/../vendor/autoload.php') ? __DIR__ . '/../vendor' : null;
}

/** Loads the frameworks and PHPUnit, and registers the library's PSR-4 roots. */
function bridge_autoload(): void
{
    static $done = false;
    if ($done) {
        return;
    }
    $done = true;
    $vendor = bridge_vendor();
    if ($vendor !== null) {
        require_once $vendor . '/autoload.php';
    } else {
        require_once 'PHPUnit/Autoload.php';
        require_once 'Symfony/Component/Lock/autoload.php';
        require_once 'Symfony/Component/Semaphore/autoload.php';
        require_once 'Illuminate/Cache/autoload.php';
        require_once 'Illuminate/Bus/autoload.php';
    }
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
