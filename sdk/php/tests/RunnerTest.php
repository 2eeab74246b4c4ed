<?php

declare(strict_types=1);

namespace A2E\Tests;

const ERROR_FIELDS = ['class', 'code', 'status', 'requestId', 'message', 'idempotencyKey', 'retryAfter', 'outcomeUnknown', 'creditsRemaining', 'spendLimit'];

/**
 * Runs conformance/runner.php on $op (JSON, or a value to encode) against $baseUrl.
 *
 * @return array{int, string} its exit status and standard output
 */
function runner(string $baseUrl, array|string $op): array
{
    $env = ['A2E_BASE_URL' => $baseUrl, 'A2E_API_KEY' => API_KEY] + getenv();
    $process = proc_open([PHP_BINARY, __DIR__ . '/../conformance/runner.php'], [['pipe', 'r'], ['pipe', 'w'], ['file', '/dev/null', 'w']], $pipes, null, $env);
    fwrite($pipes[0], is_string($op) ? $op : json_encode($op));
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]);
    fclose($pipes[1]);
    return [proc_close($process), $out];
}

/** The one JSON line the runner printed for $op, which must exit 0. */
function runnerLine(Fixture|string $server, array $op): array
{
    [$status, $out] = runner($server instanceof Fixture ? $server->baseUrl : $server, $op);
    assertSame(0, $status, 'runner exit status');
    assertSame(1, substr_count($out, "\n"), "one line: $out");
    return json_decode($out, true, 512, JSON_THROW_ON_ERROR);
}

test('runner: create prints the listing with the API\'s field names and the key sent', function (Fixture $f) {
    $f->script(created());
    $line = runnerLine($f, ['op' => 'create', 'amazonUrl' => AMAZON_URL, 'idempotencyKey' => 'conf-1']);
    assertSame(['ok' => true, 'result' => LISTING + ['idempotencyKey' => 'conf-1', 'requestId' => null], 'idempotencyKey' => 'conf-1'], $line);
    assertSame('conf-1', $f->requests()[0]['headers']['idempotency-key']);
});

test('runner: list, findByIdempotencyKey, retrieve and account print their results', function (Fixture $f) {
    $stored = array_diff_key(LISTING, ['creditsRemaining' => 0]);
    $account = ['email' => 'a@example.com', 'creditsAvailable' => 0, 'subscriptionStatus' => 'inactive', 'spendingFrozen' => true,
        'creditDebt' => 1, 'monthlyCredits' => 0, 'monthlyCreditsExpireAt' => null, 'purchasedCredits' => 0, 'otherCredits' => 0];
    $f->script(['status' => 200, 'body' => ['data' => [$stored], 'nextCursor' => 'next']], ['status' => 200, 'body' => ['data' => [], 'nextCursor' => null]],
        ['status' => 200, 'body' => $stored], ['status' => 200, 'body' => $account]);
    $read = array_replace(LISTING, ['creditsRemaining' => null]) + ['idempotencyKey' => null, 'requestId' => null];
    assertSame(['ok' => true, 'result' => ['data' => [$read], 'nextCursor' => 'next']], runnerLine($f, ['op' => 'list', 'limit' => 2, 'cursor' => 'c1']));
    assertSame(['ok' => true, 'result' => null], runnerLine($f, ['op' => 'findByIdempotencyKey', 'idempotencyKey' => 'k1']));
    assertSame(['ok' => true, 'result' => $read], runnerLine($f, ['op' => 'retrieve', 'id' => 'lst_1']));
    assertSame(['ok' => true, 'result' => $account], runnerLine($f, ['op' => 'account']));
    assertSame(['/v1/listings?limit=2&cursor=c1', '/v1/listings?idempotencyKey=k1', '/v1/listings/lst_1', '/v1/account'],
        array_column($f->requests(), 'uri'));
});

test('runner: an error prints every field of the protocol, null when the error has none', function (Fixture $f) {
    $f->script(apiError(402, 'insufficient_credits', ['creditsRemaining' => 0]));
    $line = runnerLine($f, ['op' => 'create', 'amazonUrl' => AMAZON_URL]);
    assertSame(false, $line['ok']);
    assertSame(ERROR_FIELDS, array_keys($line['error']));
    assertSame(['InsufficientCreditsError', 'insufficient_credits', 402, 'req-402', 'message of insufficient_credits',
        $f->requests()[0]['headers']['idempotency-key'], null, false, 0, null], array_values($line['error']));
    $f->script(apiError(404, 'not_found'));
    assertSame(['class' => 'NotFoundError', 'code' => 'not_found', 'status' => 404, 'requestId' => 'req-404', 'message' => 'message of not_found',
        'idempotencyKey' => null, 'retryAfter' => null, 'outcomeUnknown' => false, 'creditsRemaining' => null, 'spendLimit' => null],
        runnerLine($f, ['op' => 'retrieve', 'id' => 'gone'])['error']);
});

test('runner: maxRetries is passed to the client; an unknown outcome is printed as such', function (Fixture $f) {
    $unknown = apiError(503, 'commit_outcome_unknown', headers: ['Retry-After' => '0']);
    $f->script($unknown, $unknown, ['status' => 200, 'body' => ['data' => [], 'nextCursor' => null]]);
    $error = runnerLine($f, ['op' => 'create', 'amazonUrl' => AMAZON_URL, 'idempotencyKey' => 'k-u', 'maxRetries' => 1])['error'];
    assertSame(['ServiceUnavailableError', 'commit_outcome_unknown', 'k-u', null, true], // Retry-After 0: as absent
        [$error['class'], $error['code'], $error['idempotencyKey'], $error['retryAfter'], $error['outcomeUnknown']]);
    assertSame(3, count($f->requests()), 'two attempts and the read-back');
});

test('runner: no answer is a ConnectionError; an operation it cannot run exits 2 without a line', function (Fixture $f) {
    $error = runnerLine('http://127.0.0.1:1', ['op' => 'account', 'maxRetries' => 0])['error'];
    assertSame(['ConnectionError', null, null, false], [$error['class'], $error['code'], $error['status'], $error['outcomeUnknown']]);
    foreach (['{"op": "bogus"}', 'not json', '{"op": "retrieve"}', '{"op": "create"}'] as $input) {
        assertSame([2, ''], runner($f->baseUrl, $input), $input);
    }
});
