<?php

declare(strict_types=1);

// The models checked against the OpenAPI document (cmd/api/openapi.json,
// served as GET /v1/openapi.json): every field the document gives a result is
// a constructor property of its class, under the API's name, and nothing else
// is, but what the SDK adds; a field the document requires on every answer
// the class is read from is a required parameter; the codes the SDK branches
// on are documented ones.

namespace A2E\Tests;

use A2E\Account;
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
