<?php

declare(strict_types=1);

// Loads the A2E\ classes from src/ (PSR-4) for projects without Composer:
// require 'path/to/sdk/php/autoload.php';
spl_autoload_register(static function (string $class): void {
    $prefix = 'A2E\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
