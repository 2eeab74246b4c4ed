<?php

declare(strict_types=1);

// VeRO checks, auto-pagination, the rate limit on results, the User-Agent and
// the Retry-After rule every SDK shares. Uses ClientTest.php's helpers.

namespace A2E\Tests;

use A2E\Client;
use A2E\Exception;
use A2E\Internal\Response;

const LIMITS = ['X-RateLimit-Limit' => '20', 'X-RateLimit-Reset' => '1768471505'];

function limited(array $body, int $remaining): array
{
    return ['status' => 200, 'body' => $body, 'headers' => LIMITS + ['X-RateLimit-Remaining' => (string) $remaining]];
}

function page(array $ids, ?string $nextCursor): array
{
    return ['status' => 200, 'body' => ['data' => array_map(static fn ($id) => ['id' => $id] + LISTING, $ids), 'nextCursor' => $nextCursor]];
}

test('every request names the SDK and its version in User-Agent', function (Fixture $f) {
    $f->script(['status' => 200, 'body' => ['data' => [], 'nextCursor' => null]]);
    client($f)->listings->list();
    assertSame('a2e-sdk-php/' . Client::VERSION, $f->requests()[0]['headers']['user-agent']);
    $composer = json_decode((string) file_get_contents(__DIR__ . '/../composer.json'), true);
    assertTrue(!isset($composer['version']) || $composer['version'] === Client::VERSION, 'composer.json names another version');
});

test('Retry-After follows the vectors every SDK shares', function (Fixture $f) {
    $file = json_decode((string) file_get_contents(__DIR__ . '/../../conformance/retry-after.json'), true, 512, JSON_THROW_ON_ERROR);
    assertTrue(count($file['vectors']) > 0, 'no vectors');
    foreach ($file['vectors'] as $v) {
        $seconds = $v['seconds'] === null ? null : (float) $v['seconds'];
        assertSame($seconds, (new Response(429, ['retry-after' => $v['header']], ''))->retryAfter(), 'Retry-After ' . json_encode($v['header']));
    }
});

test('a fractional Retry-After is waited as said', function (Fixture $f) {
    $f->script(apiError(429, 'rate_limited', [], ['Retry-After' => '1.5']), ['status' => 200, 'body' => ['data' => [], 'nextCursor' => null]]);
    $sleeps = new \ArrayObject();
    client($f, $sleeps)->listings->list();
    assertSame([1.5], $sleeps->getArrayCopy());
});

test('a VeRO check refuses an empty idempotency_key before sending', function (Fixture $f) {
    $f->script();
    assertThrows(\InvalidArgumentException::class, fn () => client($f)->veroChecks->create(['brand' => 'x'], ['idempotency_key' => '']));
    assertSame([], $f->requests());
});

test('every result carries the rate limit; null without the headers', function (Fixture $f) {
    $account = ['email' => 'a@example.com', 'creditsAvailable' => 1];
    $one = ['data' => [LISTING], 'nextCursor' => null];
    $f->script(limited($account, 19), limited(LISTING, 18), limited($one, 17), limited($one, 16), ['status' => 200, 'body' => $account]);
    $c = client($f);
    assertSame(19, $c->account->retrieve()->rateLimit->remaining);
    assertSame(18, $c->listings->retrieve('L1')->rateLimit->remaining);
    $page = $c->listings->list();
    assertSame(17, $page->rateLimit->remaining);
    assertSame(false, str_contains(json_encode($page), 'rateLimit'), 'json_encode leaves the rate limit out');
    assertSame(16, $c->listings->findByIdempotencyKey('k')->rateLimit->remaining);
    assertSame(null, $c->account->retrieve()->rateLimit);
});

test('listAll follows the cursor page after page, retrying a page as any read', function (Fixture $f) {
    $f->script(page(['L5', 'L4'], 'c2'), page(['L3', 'L2'], 'c3'), apiError(503, 'service_unavailable', [], ['Retry-After' => '1']), page(['L1'], null));
    $ids = [];
    foreach (client($f)->listings->listAll(['limit' => 2]) as $listing) {
        $ids[] = $listing->id;
    }
    assertSame(['L5', 'L4', 'L3', 'L2', 'L1'], $ids);
    assertSame(['/v1/listings?limit=2', '/v1/listings?limit=2&cursor=c2', '/v1/listings?limit=2&cursor=c3', '/v1/listings?limit=2&cursor=c3'],
        array_column($f->requests(), 'uri'));
});

test('listAll throws the error that stops it', function (Fixture $f) {
    $f->script(page(['L2'], 'c2'), apiError(401, 'api_key_invalid'));
    $seen = [];
    assertThrows(Exception\AuthenticationException::class, function () use ($f, &$seen) {
        foreach (client($f)->listings->listAll() as $listing) {
            $seen[] = $listing->id;
        }
    });
    assertSame(['L2'], $seen);
});
