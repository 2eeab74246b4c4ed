<?php

declare(strict_types=1);

// The models checked against the OpenAPI document (cmd/api/openapi.json,
// served as GET /v1/openapi.json): every field the document gives a result is
// a constructor property of its class, under the API's name, and nothing else
// is, but what the SDK adds; a field the document requires on every answer
// the class is read from is a required parameter; each has the PHP type the
// document's type maps to (string, also for a date-time, which the SDK keeps
// as the API's RFC 3339 text; int; bool; an array of a schema a list of its
// class), nullable where the document allows null or an answer leaves it
// out; the error getters of the document's error fields return their types;
// the codes the SDK branches on are documented ones.

namespace A2E\Tests;

use A2E\Account;
use A2E\Exception;
use A2E\Listing;
use A2E\ListingPage;
use A2E\VeroCheck;

/** @return array<string, mixed> the document's schemas; null outside the repository */
function schemas(): ?array
{
    $file = __DIR__ . '/../../../cmd/api/openapi.json';
    return is_file($file) ? json_decode((string) file_get_contents($file), true, 512, JSON_THROW_ON_ERROR)['components']['schemas'] : null;
}

test('openapi: the models have the document\'s fields', function (Fixture $f) {
    $schemas = schemas();
    if ($schemas === null) {
        echo "     (skipped: no cmd/api/openapi.json)\n";
        return;
    }
    $models = [
        [Listing::class, ['Listing', 'ListingRecord'], ['rateLimit']],
        [ListingPage::class, ['ListingPage'], ['rateLimit']],
        [Account::class, ['Account'], ['rateLimit']],
        [VeroCheck::class, ['VeroCheck'], ['idempotencyKey', 'rateLimit']],
    ];
    foreach ($models as [$class, $names, $added]) {
        $documented = [];
        $required = null;
        foreach ($names as $name) {
            $documented = array_merge($documented, array_keys($schemas[$name]['properties']));
            $required = $required === null ? $schemas[$name]['required'] : array_intersect($required, $schemas[$name]['required']);
        }
        $params = [];
        foreach ((new \ReflectionClass($class))->getConstructor()->getParameters() as $p) {
            $params[$p->getName()] = $p;
        }
        $fields = array_values(array_diff(array_keys($params), $added));
        sort($fields);
        $documented = array_values(array_unique($documented));
        sort($documented);
        assertSame($documented, $fields, "$class's fields");
        foreach ($required as $name) {
            assertTrue(!$params[$name]->isOptional(), "$class::\$$name is required by the document");
        }
    }
});

/** The PHP type a property of the document is read into, with '?' when it may be null. */
function phpType(array $property): string
{
    $kinds = (array) ($property['type'] ?? 'string');
    $kind = array_values(array_diff($kinds, ['null']))[0];
    $type = ['string' => 'string', 'integer' => 'int', 'boolean' => 'bool', 'array' => 'array'][$kind]
        ?? throw new \RuntimeException('no PHP type for ' . json_encode($property));
    return (in_array('null', $kinds, true) ? '?' : '') . $type;
}

/** The type of a parameter or return type as phpType() writes it. */
function typeOf(\ReflectionNamedType $type): string
{
    return ($type->allowsNull() ? '?' : '') . $type->getName();
}

test('openapi: the models have the document\'s types', function (Fixture $f) {
    $schemas = schemas();
    if ($schemas === null) {
        return;
    }
    $classOf = ['Listing' => Listing::class, 'ListingRecord' => Listing::class, 'ListingPage' => ListingPage::class,
        'Account' => Account::class, 'VeroCheck' => VeroCheck::class];
    foreach ([[Listing::class, ['Listing', 'ListingRecord']], [ListingPage::class, ['ListingPage']],
        [Account::class, ['Account']], [VeroCheck::class, ['VeroCheck']]] as [$class, $names]) {
        $constructor = (new \ReflectionClass($class))->getConstructor();
        $params = [];
        foreach ($constructor->getParameters() as $p) {
            $params[$p->getName()] = $p;
        }
        $everywhere = null;
        foreach ($names as $name) {
            $here = array_intersect($schemas[$name]['required'], array_keys($schemas[$name]['properties']));
            $everywhere = $everywhere === null ? $here : array_intersect($everywhere, $here);
        }
        foreach ($names as $name) {
            foreach ($schemas[$name]['properties'] as $field => $property) {
                $want = phpType($property);
                if (!in_array($field, $everywhere, true) && $want[0] !== '?') {
                    $want = "?$want";
                }
                assertSame($want, typeOf($params[$field]->getType()), "$class::\$$field ($name)");
                if (($property['type'] ?? null) === 'array') {
                    $item = $classOf[basename($property['items']['$ref'])];
                    $short = (new \ReflectionClass($item))->getShortName();
                    assertTrue((bool) preg_match('/@param\s+list<' . $short . '>\s+\$' . $field . '\b/', (string) $constructor->getDocComment()),
                        "$class::\$$field is documented as list<$short>");
                }
            }
        }
    }
    $getters = [
        [Exception\InsufficientCreditsException::class, 'InsufficientCredits', ['creditsRemaining' => 'getCreditsRemaining']],
        [Exception\SpendLimitReachedException::class, 'SpendLimitReached',
            ['period' => 'getPeriod', 'limit' => 'getLimit', 'spent' => 'getSpent', 'resetsAt' => 'getResetsAt']],
    ];
    foreach ($getters as [$class, $schema, $methods]) {
        $properties = $schemas[$schema]['allOf'][1]['properties'];
        assertSame(array_keys($methods), array_values(array_diff(array_keys($properties), ['code'])), "$schema's fields");
        foreach ($methods as $field => $method) {
            // null when an answer lacks it (a body that is not the API's)
            $want = '?' . ltrim(phpType($properties[$field]), '?');
            assertSame($want, typeOf((new \ReflectionMethod($class, $method))->getReturnType()), "$class::$method()");
        }
    }
});

test('openapi: the error codes the SDK branches on are documented', function (Fixture $f) {
    $schemas = schemas();
    if ($schemas === null) {
        return;
    }
    $codes = $schemas['ErrorCode']['enum'];
    $src = (string) file_get_contents(__DIR__ . '/../src/Internal/ErrorFactory.php')
        . file_get_contents(__DIR__ . '/../src/Exception/ServiceUnavailableException.php');
    preg_match_all("/=== '([a-z_]+)'/", $src, $m);
    assertTrue(count($m[1]) >= 3, 'the codes the SDK compares with');
    foreach ($m[1] as $code) {
        assertTrue(in_array($code, $codes, true), "$code is not in the document's ErrorCode");
    }
    assertSame(['code', 'message', 'requestId', 'errors'], array_keys($schemas['Error']['properties']));
});
