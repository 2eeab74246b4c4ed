<?php

declare(strict_types=1);

/*
 * The PHP SDK's conformance runner (sdk/conformance/README.md): reads one
 * operation as JSON on standard input, performs it through the SDK's public
 * surface against A2E_BASE_URL with A2E_API_KEY, and prints one JSON line.
 * It exits 0 whenever it printed a line; 2 when it could not run the operation.
 */

use A2E\Client;
use A2E\Exception;

require __DIR__ . '/../autoload.php';

ini_set('display_errors', 'stderr'); // standard output is for the one line

/** The language-neutral name of each exception's kind. */
const ERROR_CLASSES = [
    Exception\AuthenticationException::class => 'AuthenticationError',
    Exception\InsufficientCreditsException::class => 'InsufficientCreditsError',
    Exception\SpendLimitReachedException::class => 'SpendLimitReachedError',
    Exception\SpendingFrozenException::class => 'SpendingFrozenError',
    Exception\RateLimitException::class => 'RateLimitError',
    Exception\InvalidRequestException::class => 'InvalidRequestError',
    Exception\NotFoundException::class => 'NotFoundError',
    Exception\IdempotencyException::class => 'IdempotencyError',
    Exception\ServiceUnavailableException::class => 'ServiceUnavailableError',
    Exception\ApiException::class => 'APIError',
    Exception\ConnectionException::class => 'ConnectionError',
];

/** Performs $op and answers the line to print. */
function run(array $op): array
{
    $options = ['api_key' => (string) getenv('A2E_API_KEY'), 'base_url' => (string) getenv('A2E_BASE_URL')];
    if (isset($op['maxRetries'])) {
        $options['max_retries'] = (int) $op['maxRetries'];
    }
    $client = new Client($options);
    $listings = $client->listings;
    $key = $op['idempotencyKey'] ?? null;
    try {
        switch ($op['op'] ?? null) {
            case 'create':
                $listing = $listings->create(['amazonUrl' => field($op, 'amazonUrl')], $key === null ? [] : ['idempotency_key' => $key]);
                return ['ok' => true, 'result' => $listing, 'idempotencyKey' => $listing->idempotencyKey];
            case 'veroCheck':
                $check = $client->veroChecks->create(['brand' => field($op, 'brand')], $key === null ? [] : ['idempotency_key' => $key]);
                return ['ok' => true, 'result' => $check, 'idempotencyKey' => $check->idempotencyKey];
            case 'retrieve':
                return ['ok' => true, 'result' => $listings->retrieve(field($op, 'id'))];
            case 'list':
                $params = array_intersect_key($op, array_flip(['limit', 'cursor', 'idempotencyKey']));
                return ['ok' => true, 'result' => $listings->list($params)];
            case 'listAll':
                $params = array_intersect_key($op, array_flip(['limit']));
                return ['ok' => true, 'result' => ['data' => iterator_to_array($listings->listAll($params), false)]];
            case 'findByIdempotencyKey':
                return ['ok' => true, 'result' => $listings->findByIdempotencyKey(field($op, 'idempotencyKey'))];
            case 'account':
                return ['ok' => true, 'result' => $client->account->retrieve()];
        }
    } catch (Exception\A2EException $e) {
        return ['ok' => false, 'error' => errorOf($e)];
    }
    throw new InvalidArgumentException('unknown op ' . json_encode($op['op'] ?? null));
}

/** The string field $name of $op, which it must have. */
function field(array $op, string $name): string
{
    return is_string($op[$name] ?? null) ? $op[$name] : throw new InvalidArgumentException("$name is required");
}

/** The error object of the protocol: every field, null when the exception has none. */
function errorOf(Exception\A2EException $e): array
{
    return [
        'class' => ERROR_CLASSES[$e::class],
        'code' => $e->getErrorCode(),
        'status' => $e->getStatus(),
        'requestId' => $e->getRequestId(),
        'message' => $e->getMessage(),
        'idempotencyKey' => $e->getIdempotencyKey(),
        'retryAfter' => $e instanceof Exception\RateLimitException || $e instanceof Exception\ServiceUnavailableException
            ? $e->getRetryAfter() : null,
        'outcomeUnknown' => $e instanceof Exception\ServiceUnavailableException && $e->isOutcomeUnknown(),
        'creditsRemaining' => $e instanceof Exception\InsufficientCreditsException ? $e->getCreditsRemaining() : null,
        'spendLimit' => $e instanceof Exception\SpendLimitReachedException
            ? ['period' => $e->getPeriod(), 'limit' => $e->getLimit(), 'spent' => $e->getSpent(), 'resetsAt' => $e->getResetsAt()]
            : null,
    ];
}

/** The line with the result's rate limit beside it, as the protocol has it. */
function withRateLimit(array $line): array
{
    $result = $line['result'] ?? null;
    if (is_object($result) && property_exists($result, 'rateLimit') && $result->rateLimit !== null) {
        $line['rateLimit'] = $result->rateLimit;
    }
    return $line;
}

try {
    $line = withRateLimit(run(json_decode((string) stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR)));
} catch (Throwable $e) {
    fwrite(STDERR, 'runner: ' . $e->getMessage() . "\n");
    exit(2);
}
echo json_encode($line, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR), "\n";
