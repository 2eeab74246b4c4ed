<?php

declare(strict_types=1);

/*
 * The PHP SDK's tests: php sdk/php/tests/run.php [name filter]
 * Each *Test.php file registers cases with test(); they run against a
 * scripted local server (fixture-server.php). Exits 1 when any case fails.
 */

namespace A2E\Tests;

require __DIR__ . '/../autoload.php';
require __DIR__ . '/Fixture.php';

final class AssertionFailed extends \Exception
{
}

/** @var array<string, \Closure(Fixture): void> */
$tests = [];

/** Registers a case. */
function test(string $name, \Closure $case): void
{
    $GLOBALS['tests'][$name] = $case;
}

function assertSame(mixed $expected, mixed $actual, string $what = ''): void
{
    if ($expected !== $actual) {
        throw new AssertionFailed(sprintf('%sexpected %s, got %s', $what === '' ? '' : "$what: ",
            var_export($expected, true), var_export($actual, true)));
    }
}

/** Objects of the same class with equal properties. */
function assertEquals(object $expected, object $actual, string $what = ''): void
{
    if ($expected != $actual) {
        assertSame($expected, $actual, $what);
    }
}

function assertTrue(bool $condition, string $what): void
{
    if (!$condition) {
        throw new AssertionFailed($what);
    }
}

/**
 * Runs $call, which must throw a $class.
 *
 * @template T of \Throwable
 * @param class-string<T> $class
 * @return T
 */
function assertThrows(string $class, \Closure $call): \Throwable
{
    try {
        $call();
    } catch (\Throwable $e) {
        if ($e instanceof $class) {
            return $e;
        }
        throw new AssertionFailed(sprintf('expected %s, got %s: %s', $class, $e::class, $e->getMessage()));
    }
    throw new AssertionFailed("expected $class, nothing was thrown");
}

// A warning or notice fails the case that raised it (unless silenced with @).
set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
    if ((error_reporting() & $severity) === 0) {
        return false;
    }
    throw new \ErrorException($message, 0, $severity, $file, $line);
});

foreach (glob(__DIR__ . '/*Test.php') as $file) {
    require $file;
}

$filter = $argv[1] ?? '';
$fixture = new Fixture();
register_shutdown_function($fixture->stop(...));
$failed = 0;
$ran = 0;
foreach ($tests as $name => $case) {
    if ($filter !== '' && !str_contains($name, $filter)) {
        continue;
    }
    $ran++;
    try {
        $case($fixture);
        echo "ok   $name\n";
    } catch (\Throwable $e) {
        $failed++;
        echo "FAIL $name\n     ", $e::class, ': ', $e->getMessage(), "\n";
        if (!$e instanceof AssertionFailed) {
            echo '     at ', $e->getFile(), ':', $e->getLine(), "\n";
        }
    }
}
echo $failed === 0 ? "all $ran passed\n" : "$failed of $ran failed\n";
exit($failed === 0 ? 0 : 1);
