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

test('runner: no answer is a ConnectionError; an operation it cannot run exits 2 without a line', function (Fixture $f) {
    $error = runnerLine('http://127.0.0.1:1', ['op' => 'account', 'maxRetries' => 0])['error'];
    assertSame(['ConnectionError', null, null, false], [$error['class'], $error['code'], $error['status'], $error['outcomeUnknown']]);
    foreach (['{"op": "bogus"}', 'not json', '{"op": "retrieve"}', '{"op": "create"}'] as $input) {
        assertSame([2, ''], runner($f->baseUrl, $input), $input);
    }
});
