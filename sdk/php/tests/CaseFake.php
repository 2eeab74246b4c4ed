<?php

declare(strict_types=1);

// The case-driven fake: for one step of sdk/conformance/cases.json, the answers the fixture server gives
// (Fixture::plan) as the case says the real server answers (the step's `expect`, its `arrange` before it),
// and the check of what the SDK sent. A behaviour change is one edit to cases.json; test/sdk runs the same
// cases against the real bin/api.

namespace A2E\Tests\Cases;

// The arranged failure's Retry-After: short, so that riding it out is quick.
const ARRANGED_RETRY_AFTER = '0.05';
const TIMESTAMP = '2026-11-25T16:00:00.123456Z';

/** @return list<array<string, mixed>> */
function cases(): array
{
    return json_decode((string) file_get_contents(__DIR__ . '/../../conformance/cases.json'), true, 512, JSON_THROW_ON_ERROR)['cases'];
}

/** `${name}` replaced by $vars[name] in every string of $value. */
function substitute(mixed $value, array $vars): mixed
{
    if (is_string($value)) {
        if (preg_match('/^\$\{(\w+)\}$/', $value, $m)) {
            return $vars[$m[1]];
        }
        return preg_replace_callback('/\$\{(\w+)\}/', static fn (array $m): string => (string) $vars[$m[1]], $value);
    }
    if (is_array($value)) {
        return array_map(static fn (mixed $v): mixed => substitute($v, $vars), $value);
    }
    return $value;
}

/** An answer's value for an expectation: "<string>" a fresh string (a timestamp where one is), "<positive>" 1. */
function materialize(mixed $value, string $key = ''): mixed
{
    if ($value === '<string>') {
        return in_array($key, ['createdAt', 'resetsAt', 'monthlyCreditsExpireAt'], true) ? TIMESTAMP : bin2hex(random_bytes(8));
    }
    if ($value === '<positive>') {
        return 1;
    }
    if (is_array($value)) {
        $out = [];
        foreach ($value as $k => $v) {
            $out[$k] = materialize($v, (string) $k);
        }
        return $out;
    }
    return $value;
}

/** The first way $actual does not hold what $expect names (sdk/conformance/README.md), else null. */
function mismatch(mixed $expect, mixed $actual, string $path = ''): ?string
{
    if ($expect === null) {
        return $actual === null ? null : "$path: want null, got " . json_encode($actual);
    }
    if ($expect === '<string>') {
        return is_string($actual) && $actual !== '' ? null : "$path: want a string, got " . json_encode($actual);
    }
    if ($expect === '<positive>') {
        return (is_int($actual) || is_float($actual)) && $actual > 0 ? null : "$path: want a positive number, got " . json_encode($actual);
    }
    if (is_array($expect) && array_is_list($expect)) {
        if (!is_array($actual) || !array_is_list($actual) || count($actual) !== count($expect)) {
            return "$path: want " . count($expect) . ' items, got ' . json_encode($actual);
        }
        foreach ($expect as $i => $e) {
            if (($m = mismatch($e, $actual[$i], "{$path}[$i]")) !== null) {
                return $m;
            }
        }
        return null;
    }
    if (is_array($expect)) {
        if (!is_array($actual)) {
            return "$path: want an object, got " . json_encode($actual);
        }
        foreach ($expect as $k => $e) {
            if (($m = mismatch($e, $actual[$k] ?? null, "$path.$k")) !== null) {
                return $m;
            }
        }
        return null;
    }
    return $expect === $actual ? null : "$path: want " . json_encode($expect) . ', got ' . json_encode($actual);
}

/** The value at a dotted path such as "result.nextCursor". */
function at(array $line, string $path): mixed
{
    $value = $line;
    foreach (explode('.', $path) as $k) {
        $value = is_array($value) ? ($value[$k] ?? null) : null;
    }
    return $value;
}

function rateLimitHeaders(): array
{
    return ['X-RateLimit-Limit' => '20', 'X-RateLimit-Remaining' => '19', 'X-RateLimit-Reset' => (string) (time() + 60)];
}

function errorAnswer(int $status, string $code, ?string $retryAfter = null, ?string $requestId = null, ?string $message = null, array $extra = []): array
{
    $requestId ??= bin2hex(random_bytes(8));
    $headers = ['X-Request-ID' => $requestId];
    if ($retryAfter !== null) {
        $headers['Retry-After'] = $retryAfter;
    }
    return ['status' => $status, 'headers' => $headers,
        'body' => ['code' => $code, 'message' => $message ?? "$code message", 'requestId' => $requestId] + $extra];
}

/** The error answer the step's expected error is the SDK's reading of. */
function expectedErrorAnswer(array $error): array
{
    $e = materialize($error);
    $extra = [];
    if (($e['creditsRemaining'] ?? null) !== null) {
        $extra['creditsRemaining'] = $e['creditsRemaining'];
    }
    $extra += $e['spendLimit'] ?? [];
    $retryAfter = $e['retryAfter'] ?? (in_array($e['status'], [429, 503], true) ? ARRANGED_RETRY_AFTER : null);
    return errorAnswer($e['status'], $e['code'], $retryAfter === null ? null : (string) $retryAfter, $e['requestId'] ?? null, $e['message'] ?? null, $extra);
}

function listingOf(?array $fields, array $op = []): array
{
    $fields ??= [];
    $url = $fields['amazonUrl'] ?? $op['amazonUrl'] ?? 'https://www.amazon.com/dp/B000000000';
    return materialize($fields) + [
        'id' => bin2hex(random_bytes(8)),
        'asin' => preg_match('#/dp/(\w+)#', $url, $m) ? $m[1] : 'B000000000',
        'amazonUrl' => $url,
        'status' => 'queued',
        'createdAt' => TIMESTAMP,
    ];
}

/** The request each op makes: method, path, the query it must carry and the body. */
function requestOf(array $op): array
{
    return match ($op['op']) {
        'create' => ['method' => 'POST', 'path' => '/v1/listings', 'body' => ['amazonUrl' => $op['amazonUrl']]],
        'veroCheck' => ['method' => 'POST', 'path' => '/v1/vero-checks', 'body' => ['brand' => $op['brand']]],
        'retrieve' => ['method' => 'GET', 'path' => '/v1/listings/' . rawurlencode($op['id'])],
        'list' => ['method' => 'GET', 'path' => '/v1/listings', 'query' => [
            'limit' => $op['limit'] ?? null, 'cursor' => $op['cursor'] ?? null, 'idempotencyKey' => $op['idempotencyKey'] ?? null]],
        'listAll' => ['method' => 'GET', 'path' => '/v1/listings', 'query' => ['limit' => $op['limit'] ?? null]],
        'findByIdempotencyKey' => ['method' => 'GET', 'path' => '/v1/listings', 'query' => ['idempotencyKey' => $op['idempotencyKey']]],
        'account' => ['method' => 'GET', 'path' => '/v1/account'],
    };
}

/**
 * The plan of one step ($op and $expect with the variables substituted): the request the op makes and the
 * answers by method for Fixture::plan.
 *
 * @return array{request: array, answers: array<string, list<array>>}
 */
function plan(array $step, array $op, array $expect, array $vars): array
{
    $request = requestOf($op);
    $method = $request['method'];
    $arrange = $step['arrange'] ?? null;
    $answers = [];
    if (!$expect['ok']) {
        $final = ($expect['error']['status'] ?? null) === null ? ['status' => 599] : expectedErrorAnswer($expect['error']);
    } else {
        $r = array_key_exists('result', $expect) ? $expect['result'] : [];
        $status = $method === 'POST' ? 201 : 200;
        $body = match ($op['op']) {
            'create', 'retrieve' => listingOf($r, $op),
            'veroCheck' => materialize($r) + ['id' => bin2hex(random_bytes(8)),
                'brand' => preg_replace('/\s+/', ' ', trim($op['brand'])), 'protected' => false, 'creditsRemaining' => 0],
            'list' => ['data' => array_map(static fn (array $l): array => listingOf($l), $r['data'] ?? []),
                'nextCursor' => materialize($r['nextCursor'] ?? null)],
            'findByIdempotencyKey' => ['data' => $r === null ? [] : [listingOf($r)], 'nextCursor' => null],
            'listAll' => null,
            'account' => materialize($r) + ['email' => $vars['email'], 'creditsAvailable' => 0, 'subscriptionStatus' => 'inactive',
                'spendingFrozen' => false, 'creditDebt' => 0, 'monthlyCredits' => 0, 'monthlyCreditsExpireAt' => null,
                'purchasedCredits' => 0, 'otherCredits' => 0],
        };
        if ($op['op'] === 'listAll') {
            $pages = array_chunk(array_map(static fn (array $l): array => listingOf($l), $r['data']), $op['limit']);
            foreach ($pages as $i => $page) {
                $answers[$method][] = ['status' => 200, 'body' => ['data' => $page, 'nextCursor' => $i + 1 < count($pages) ? (string) ($i + 1) : null]];
            }
            return ['request' => $request, 'answers' => $answers];
        }
        $final = ['status' => $status, 'headers' => rateLimitHeaders(), 'body' => $body];
    }
    $arranged = [
        'rateLimited' => [429, 'rate_limited'],
        'databaseDown' => [503, 'service_unavailable'],
        'commitCut' => [503, 'commit_outcome_unknown'],
        'commitLost' => [503, 'commit_outcome_unknown'],
    ][$arrange] ?? null;
    if ($arranged !== null && $expect['ok']) {
        $answers[$method][] = errorAnswer($arranged[0], $arranged[1], ARRANGED_RETRY_AFTER);
    }
    $answers[$method][] = $final;
    if ($arrange === 'commitCut' || $arrange === 'commitLost') {
        // The read-back by key after the last attempt: the cut COMMIT committed, the lost one did not.
        $found = $arrange === 'commitCut' ? [($expect['ok'] ? $final['body'] : listingOf([], $op)) + ['idempotencyKey' => $op['idempotencyKey'] ?? null]] : [];
        $answers['GET'][] = ['status' => 200, 'headers' => rateLimitHeaders(), 'body' => ['data' => $found, 'nextCursor' => null]];
    }
    return ['request' => $request, 'answers' => $answers];
}

/**
 * What the step's requests broke of the protocol, else null: each is the op's, with the API key; every retry
 * of a POST has the first attempt's key and bytes; at most maxRetries retries, none after an answer a retry
 * cannot fix; a read-back (one GET by the key) only after a commit_outcome_unknown.
 */
function requestsMismatch(array $plan, array $op, array $requests, string $apiKey, int $maxRetries): ?string
{
    $request = $plan['request'];
    $attempts = array_values(array_filter($requests, static fn (array $r): bool => $r['method'] === $request['method']));
    $others = array_values(array_filter($requests, static fn (array $r): bool => $r['method'] !== $request['method']));
    if ($attempts === [] || ($op['op'] !== 'listAll' && count($attempts) > $maxRetries + 1)) {
        return count($attempts) . " attempts of {$request['method']}, maxRetries $maxRetries";
    }
    foreach ($requests as $r) {
        if (($r['headers']['x-api-key'] ?? null) !== $apiKey) {
            return "{$r['method']} {$r['uri']} without the API key";
        }
    }
    $first = $attempts[0];
    $key = $first['headers']['idempotency-key'] ?? '';
    foreach ($attempts as $r) {
        $path = parse_url($r['uri'], PHP_URL_PATH);
        if ($path !== $request['path']) {
            return "{$r['method']} {$r['uri']}, want {$request['path']}";
        }
        parse_str((string) parse_url($r['uri'], PHP_URL_QUERY), $query);
        foreach ($request['query'] ?? [] as $k => $v) {
            if ($v !== null && ($query[$k] ?? null) !== (string) $v) {
                return "{$r['uri']}: want $k=$v";
            }
            if ($v === null && $op['op'] === 'list' && array_key_exists($k, $query)) {
                return "{$r['uri']}: $k sent, not given";
            }
        }
        if (isset($request['body'])) {
            if (json_decode($r['body'], true) !== $request['body']) {
                return "{$r['uri']}: body {$r['body']}, want " . json_encode($request['body']);
            }
            if ($key === '' || (($op['idempotencyKey'] ?? null) !== null && $key !== $op['idempotencyKey'])) {
                return "Idempotency-Key $key, want " . ($op['idempotencyKey'] ?? 'a fresh one');
            }
            if (($r['headers']['idempotency-key'] ?? null) !== $key || $r['body'] !== $first['body']) {
                return "a retry without the first attempt's key and bytes";
            }
        }
    }
    if ($op['op'] !== 'listAll') {
        foreach (array_slice($attempts, 0, -1) as $r) {
            if ($r['answer']['status'] !== 429 && $r['answer']['status'] < 500) {
                return 'retried after an answer that a retry cannot fix';
            }
        }
    }
    if ($others !== []) {
        $unknown = end($attempts)['answer']['code'] === 'commit_outcome_unknown';
        parse_str((string) parse_url($others[0]['uri'], PHP_URL_QUERY), $query);
        if (count($others) !== 1 || !$unknown || $others[0]['method'] !== 'GET'
            || parse_url($others[0]['uri'], PHP_URL_PATH) !== '/v1/listings' || ($query['idempotencyKey'] ?? null) !== $key) {
            return 'unexpected ' . implode(', ', array_map(static fn (array $r): string => "{$r['method']} {$r['uri']}", $others));
        }
    }
    return null;
}
