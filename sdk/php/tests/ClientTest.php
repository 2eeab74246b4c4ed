<?php

declare(strict_types=1);

namespace A2E\Tests;

use A2E\Client;
use A2E\Exception;
use A2E\Listing;

const API_KEY = 'a2e_test_secret_key_0123456789';
const AMAZON_URL = 'https://www.amazon.com/dp/B08N5WRWNW';
const LISTING = ['id' => 'lst_1', 'asin' => 'B08N5WRWNW', 'amazonUrl' => AMAZON_URL, 'status' => 'queued',
    'creditsRemaining' => 4, 'createdAt' => '2026-01-02T03:04:05.123456Z'];
const UUID4 = '/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/';

/** A client of the fixture that records its waits in $sleeps instead of sleeping. */
function client(Fixture $f, \ArrayObject $sleeps = new \ArrayObject(), array $options = []): Client
{
    return new Client($options + [
        'api_key' => API_KEY,
        'base_url' => $f->baseUrl . '/',
        'sleeper' => static function (float $seconds) use ($sleeps): void {
            $sleeps[] = $seconds;
        },
    ]);
}

/** A scripted error answer as the API writes it. */
function apiError(int $status, string $code, array $extra = [], array $headers = []): array
{
    return ['status' => $status, 'headers' => $headers + ['X-Request-ID' => "req-$status"],
        'body' => ['code' => $code, 'message' => "message of $code", 'requestId' => "req-$status"] + $extra];
}

function created(array $listing = LISTING): array
{
    return ['status' => 201, 'body' => $listing];
}

/** Asserts that every recorded request sent the same Idempotency-Key and body; answers the key. */
function assertOneKey(array $requests): string
{
    $key = $requests[0]['headers']['idempotency-key'];
    foreach ($requests as $i => $r) {
        assertSame($key, $r['headers']['idempotency-key'], "key of attempt $i");
        assertSame($requests[0]['body'], $r['body'], "body of attempt $i");
    }
    return $key;
}

test('create sends the API key, a fresh UUID v4 key and the body; answers the listing with its key', function (Fixture $f) {
    $f->script(created());
    $listing = client($f)->listings->create(['amazonUrl' => AMAZON_URL]);
    [$request] = $f->requests();
    assertSame('POST', $request['method']);
    assertSame('/v1/listings', $request['uri']);
    assertSame(API_KEY, $request['headers']['x-api-key']);
    assertSame('application/json', $request['headers']['content-type']);
    assertSame('{"amazonUrl":"' . AMAZON_URL . '"}', $request['body']);
    assertTrue((bool) preg_match(UUID4, $request['headers']['idempotency-key']), 'the key is a UUID v4');
    assertEquals(new Listing('lst_1', 'B08N5WRWNW', AMAZON_URL, 'queued', 4, '2026-01-02T03:04:05.123456Z',
        $request['headers']['idempotency-key']), $listing, 'the listing');
});

test('create sends the caller\'s idempotency key; each create has its own fresh one', function (Fixture $f) {
    $f->script(created(), created(), created());
    $client = client($f);
    assertSame('mine-1', $client->listings->create(['amazonUrl' => AMAZON_URL], ['idempotency_key' => 'mine-1'])->idempotencyKey);
    $client->listings->create(['amazonUrl' => AMAZON_URL]);
    $client->listings->create(['amazonUrl' => AMAZON_URL]);
    $keys = array_map(static fn ($r) => $r['headers']['idempotency-key'], $f->requests());
    assertSame('mine-1', $keys[0]);
    assertTrue($keys[1] !== $keys[2], 'two creates, two keys');
});

test('503 and 429 are retried with the same key and bytes, waiting Retry-After (capped at 20 s) or a jittered backoff', function (Fixture $f) {
    $sleeps = new \ArrayObject();
    $f->script(
        apiError(503, 'service_unavailable'),
        apiError(429, 'rate_limited', headers: ['Retry-After' => '3']),
        apiError(503, 'service_unavailable', headers: ['Retry-After' => '60']),
        created(),
    );
    $listing = client($f, $sleeps)->listings->create(['amazonUrl' => AMAZON_URL]);
    $requests = $f->requests();
    assertSame(4, count($requests), 'attempts');
    assertSame($listing->idempotencyKey, assertOneKey($requests));
    assertTrue($sleeps[0] >= 0 && $sleeps[0] <= 0.5, "the first backoff is within [0, 0.5] s, was $sleeps[0]");
    assertSame([3.0, 20.0], array_slice($sleeps->getArrayCopy(), 1), 'Retry-After waits');
});

test('the backoff grows with full jitter up to its cap', function (Fixture $f) {
    $sleeps = new \ArrayObject();
    $f->script(...array_fill(0, 7, apiError(503, 'service_unavailable')));
    assertThrows(Exception\ServiceUnavailableException::class, fn () => client($f, $sleeps, ['max_retries' => 6])->account->retrieve());
    foreach ([0.5, 1.0, 2.0, 4.0, 8.0, 8.0] as $i => $cap) {
        assertTrue($sleeps[$i] >= 0 && $sleeps[$i] <= $cap, "wait $i within [0, $cap] s, was $sleeps[$i]");
    }
});

test('Retry-After as an HTTP date is waited until that time', function (Fixture $f) {
    $sleeps = new \ArrayObject();
    $f->script(apiError(503, 'service_unavailable', headers: ['Retry-After' => gmdate(DATE_RFC7231, time() + 5)]), ['status' => 200, 'body' => []]);
    client($f, $sleeps)->account->retrieve();
    assertTrue(in_array($sleeps[0], [4.0, 5.0], true), "waited $sleeps[0] s");
});

test('when the retries run out the last error is thrown: max_retries + 1 attempts', function (Fixture $f) {
    $sleeps = new \ArrayObject();
    $f->script(...array_fill(0, 4, apiError(429, 'rate_limited', headers: ['Retry-After' => '1'])));
    $e = assertThrows(Exception\RateLimitException::class, fn () => client($f, $sleeps)->listings->create(['amazonUrl' => AMAZON_URL]));
    assertSame(4, count($f->requests()), 'attempts');
    assertSame([1.0, 1.0, 1.0], $sleeps->getArrayCopy(), 'waits');
    assertSame(['rate_limited', 429, 'req-429', 1.0, 'message of rate_limited'],
        [$e->getErrorCode(), $e->getStatus(), $e->getRequestId(), $e->getRetryAfter(), $e->getMessage()]);
    assertSame(assertOneKey($f->requests()), $e->getIdempotencyKey(), 'the error carries the key');
});

test('500, 502 and 504 are retried on reads and keyed creates', function (Fixture $f) {
    $f->script(apiError(500, 'internal_error'), ['status' => 502, 'body' => '<html>bad gateway</html>'], ['status' => 504], created());
    client($f)->listings->create(['amazonUrl' => AMAZON_URL]);
    assertOneKey($f->requests());
    assertSame(4, count($f->requests()));
    $f->script(apiError(500, 'internal_error'), ['status' => 200, 'body' => ['data' => [], 'nextCursor' => null]]);
    client($f)->listings->list();
    assertSame(2, count($f->requests()));
});

// The codes cases.json answers are checked by CasesTest.php; here the others.
test('each error answer is its exception, not retried', function (Fixture $f) {
    $cases = [
        [apiError(401, 'api_key_missing'), Exception\AuthenticationException::class],
        [apiError(405, 'method_not_allowed'), Exception\InvalidRequestException::class],
        [apiError(413, 'request_too_large'), Exception\InvalidRequestException::class],
        [apiError(415, 'unsupported_media_type'), Exception\InvalidRequestException::class],
        [apiError(409, 'conflict'), Exception\ApiException::class],
    ];
    foreach ($cases as [$answer, $class]) {
        $f->script($answer, created());
        $e = assertThrows($class, fn () => client($f)->listings->create(['amazonUrl' => AMAZON_URL]));
        $requests = $f->requests();
        assertSame(1, count($requests), "$class: attempts");
        assertSame([$answer['body']['code'], $answer['status'], $answer['body']['requestId'], $requests[0]['headers']['idempotency-key']],
            [$e->getErrorCode(), $e->getStatus(), $e->getRequestId(), $e->getIdempotencyKey()], $class);
    }
    $f->script(apiError(400, 'invalid_request', ['errors' => ['amazonUrl' => 'bad url']]));
    $e = assertThrows(Exception\InvalidRequestException::class, fn () => client($f)->listings->create(['amazonUrl' => 'x']));
    assertSame(['amazonUrl' => 'bad url'], $e->getFields());
});

test('an error without a JSON body keeps its status and the X-Request-ID header', function (Fixture $f) {
    $f->script(['status' => 500, 'headers' => ['X-Request-ID' => 'req-html'], 'body' => '<html>oops</html>']);
    $e = assertThrows(Exception\ApiException::class, fn () => client($f, options: ['max_retries' => 0])->account->retrieve());
    assertSame([null, 500, 'req-html', 'The API answered HTTP 500'], [$e->getErrorCode(), $e->getStatus(), $e->getRequestId(), $e->getMessage()]);
});

test('a success whose body is not JSON is an ApiException', function (Fixture $f) {
    $f->script(['status' => 200, 'body' => 'not json']);
    $e = assertThrows(Exception\ApiException::class, fn () => client($f)->account->retrieve());
    assertSame(200, $e->getStatus());
});

test('a failed read-back is tried once and the outcome stays unknown', function (Fixture $f) {
    $f->script(...[...array_fill(0, 4, apiError(503, 'commit_outcome_unknown')), apiError(503, 'service_unavailable'), created()]);
    $e = assertThrows(Exception\ServiceUnavailableException::class, fn () => client($f)->listings->create(['amazonUrl' => AMAZON_URL]));
    assertSame(5, count($f->requests()));
    assertTrue($e->isOutcomeUnknown(), 'outcome unknown');
});

test('an attempt that times out is retried with the same key', function (Fixture $f) {
    $sleeps = new \ArrayObject();
    // The server answers the second attempt once the first's delay is over,
    // about 0.2 s after the first attempt was cut at 0.8 s.
    $f->script(created() + ['delay' => 1], created());
    $started = microtime(true);
    client($f, $sleeps, ['timeout' => 0.8])->listings->create(['amazonUrl' => AMAZON_URL]);
    assertTrue(microtime(true) - $started < 1.6, 'the first attempt was cut at its timeout');
    assertOneKey($f->requests());
    assertSame(1, count($sleeps));
});

test('no answer at all: ConnectionException after the retries, with the key', function (Fixture $f) {
    $sleeps = new \ArrayObject();
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $closed = 'http://' . stream_socket_get_name($server, false);
    fclose($server);
    $e = assertThrows(Exception\ConnectionException::class, fn () => client($f, $sleeps, ['base_url' => $closed])->listings->create(['amazonUrl' => AMAZON_URL], ['idempotency_key' => 'k-net']));
    assertSame(3, count($sleeps), 'retried');
    assertSame([null, null, 'k-net'], [$e->getErrorCode(), $e->getStatus(), $e->getIdempotencyKey()]);
});

test('retrieve, list, findByIdempotencyKey and account send their reads and answer objects', function (Fixture $f) {
    $stored = array_diff_key(LISTING, ['creditsRemaining' => 0]) + ['idempotencyKey' => 'k/1', 'requestId' => 'req-x'];
    $account = ['email' => 'a@example.com', 'creditsAvailable' => 10, 'subscriptionStatus' => 'active', 'spendingFrozen' => false,
        'creditDebt' => 0, 'monthlyCredits' => 5, 'monthlyCreditsExpireAt' => '2026-02-01T00:00:00Z', 'purchasedCredits' => 2,
        'otherCredits' => 3];
    $f->script(
        ['status' => 200, 'body' => $stored],
        ['status' => 200, 'body' => ['data' => [$stored, $stored], 'nextCursor' => 'c+2/=']],
        ['status' => 200, 'body' => ['data' => [], 'nextCursor' => null]],
        ['status' => 200, 'body' => ['data' => [$stored], 'nextCursor' => null]],
        ['status' => 200, 'body' => $account],
    );
    $client = client($f);
    $listing = $client->listings->retrieve('lst 1');
    $page = $client->listings->list(['limit' => 2, 'cursor' => 'c+1/=', 'idempotencyKey' => null]);
    $none = $client->listings->findByIdempotencyKey('k/0');
    $found = $client->listings->findByIdempotencyKey('k/1');
    $read = $client->account->retrieve();
    assertSame(['GET /v1/listings/lst%201', 'GET /v1/listings?limit=2&cursor=c%2B1%2F%3D', 'GET /v1/listings?idempotencyKey=k%2F0',
        'GET /v1/listings?idempotencyKey=k%2F1', 'GET /v1/account'],
        array_map(static fn ($r) => $r['method'] . ' ' . $r['uri'], $f->requests()));
    foreach ($f->requests() as $r) {
        assertTrue(!isset($r['headers']['idempotency-key']), 'reads carry no Idempotency-Key');
    }
    assertSame(['lst_1', null, 'k/1', 'req-x'], [$listing->id, $listing->creditsRemaining, $listing->idempotencyKey, $listing->requestId]);
    assertSame(3, $read->otherCredits);
    assertSame([2, 'c+2/='], [count($page->data), $page->nextCursor]);
    assertSame([null, 'lst_1'], [$none, $found?->id]);
    assertSame($account, json_decode(json_encode($read), true), 'the account, with the API\'s field names');
});

test('options are checked', function (Fixture $f) {
    $url = ['base_url' => 'https://api.example.com'];
    foreach ([[], ['api_key' => ''] + $url, ['api_key' => API_KEY, 'apiKey' => API_KEY] + $url, ['api_key' => API_KEY, 'timeout' => 0] + $url,
        ['api_key' => API_KEY, 'max_retries' => -1] + $url, ['api_key' => API_KEY, 'base_url' => 'localhost:8080'],
        ['api_key' => API_KEY], ['api_key' => API_KEY, 'base_url' => ''], ['api_key' => API_KEY, 'base_url' => null]] as $options) {
        $e = assertThrows(\InvalidArgumentException::class, fn () => new Client($options));
        assertTrue(!str_contains($e->getMessage(), API_KEY), 'no key in ' . $e->getMessage());
    }
    assertThrows(\InvalidArgumentException::class, fn () => client($f)->listings->retrieve(''));
    $f->script(created());
    foreach ([['idempotencyKey' => 'k'], ['idempotency_key' => ''], ['idempotency_key' => 42]] as $options) {
        assertThrows(\InvalidArgumentException::class, fn () => client($f)->listings->create(['amazonUrl' => AMAZON_URL], $options));
    }
    assertSame([], $f->requests(), 'nothing sent');
});

test('the API key appears in no string form of the client or of an error', function (Fixture $f) {
    ini_set('zend.exception_ignore_args', '0');
    $client = client($f, options: ['max_retries' => 0]);
    $f->script(apiError(401, 'api_key_invalid'));
    $auth = assertThrows(Exception\AuthenticationException::class, fn () => $client->listings->create(['amazonUrl' => AMAZON_URL]));
    $network = assertThrows(Exception\ConnectionException::class, fn () => client($f, options: ['base_url' => 'http://127.0.0.1:1', 'max_retries' => 0])->account->retrieve());
    $forms = [(string) $client, print_r($client, true), var_export($client, true), print_r($client->listings, true),
        (string) $auth, print_r($auth, true), (string) $network, print_r($network, true)];
    ob_start();
    var_dump($client, $client->listings, $client->account, $auth);
    $forms[] = ob_get_clean();
    foreach ($forms as $i => $form) {
        assertTrue(!str_contains($form, API_KEY) && !str_contains($form, substr(API_KEY, 0, 12)), "string form $i shows the key:\n$form");
    }
    assertThrows(\Throwable::class, fn () => serialize($client));
});

test('Retry-After 0, negative or past is as absent: the jittered backoff is waited', function (Fixture $f) {
    $sleeps = new \ArrayObject();
    $f->script(apiError(429, 'rate_limited', [], ['Retry-After' => '0']), apiError(503, 'service_unavailable', [], ['Retry-After' => '-3']),
        ['status' => 200, 'body' => ['data' => [], 'nextCursor' => null]]);
    client($f, $sleeps)->listings->list();
    assertSame(2, count($sleeps));
    assertTrue($sleeps[0] <= 0.5 && $sleeps[1] <= 1.0, 'backoff bounds: ' . json_encode($sleeps->getArrayCopy()));
    $past = new \A2E\Internal\Response(503, ['retry-after' => 'Wed, 25 Nov 2026 15:00:00 GMT'], '');
    assertSame(null, $past->retryAfter(strtotime('2026-11-25T16:00:00Z')));
    $later = new \A2E\Internal\Response(503, ['retry-after' => 'Wed, 25 Nov 2026 16:00:07 GMT'], '');
    assertSame(7.0, $later->retryAfter(strtotime('2026-11-25T16:00:00Z')));
    $zero = assertThrows(Exception\RateLimitException::class, function () use ($f) {
        $f->script(apiError(429, 'rate_limited', [], ['Retry-After' => '0']));
        client($f, options: ['max_retries' => 0])->account->retrieve();
    });
    assertSame(null, $zero->getRetryAfter());
});

test('a 422 that is not a reused key is InvalidRequestException', function (Fixture $f) {
    $f->script(apiError(422, 'unprocessable'));
    assertThrows(Exception\InvalidRequestException::class, fn () => client($f)->listings->create(['amazonUrl' => AMAZON_URL]));
});
