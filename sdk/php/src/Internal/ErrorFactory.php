<?php

declare(strict_types=1);

namespace A2E\Internal;

use A2E\Exception\A2EException;
use A2E\Exception\ApiException;
use A2E\Exception\AuthenticationException;
use A2E\Exception\IdempotencyException;
use A2E\Exception\InsufficientCreditsException;
use A2E\Exception\SpendLimitReachedException;
use A2E\Exception\InvalidRequestException;
use A2E\Exception\NotFoundException;
use A2E\Exception\RateLimitException;
use A2E\Exception\ServiceUnavailableException;
use A2E\Exception\SpendingFrozenException;

/**
 * Turns an error answer into its exception, by the body's code and the status
 * (sdk/README.md's table).
 *
 * @internal
 */
final class ErrorFactory
{
    public static function fromResponse(Response $response, ?string $idempotencyKey): A2EException
    {
        $body = $response->json() ?? [];
        $status = $response->status;
        $code = is_string($body['code'] ?? null) ? $body['code'] : null;
        $message = is_string($body['message'] ?? null) ? $body['message'] : "The API answered HTTP $status";
        $requestId = is_string($body['requestId'] ?? null) ? $body['requestId'] : ($response->headers['x-request-id'] ?? null);
        $args = [$message, $code, $status, $requestId, $idempotencyKey];

        return match (true) {
            $code === 'spending_frozen' => new SpendingFrozenException(...$args),
            $code === 'idempotency_key_reused' => new IdempotencyException(...$args),
            $status === 401 => new AuthenticationException(...$args),
            $status === 402 && $code === 'spend_limit_reached' => new SpendLimitReachedException(
                ...$args,
                period: is_string($body['period'] ?? null) ? $body['period'] : null,
                limit: self::intOrNull($body['limit'] ?? null),
                spent: self::intOrNull($body['spent'] ?? null),
                resetsAt: is_string($body['resetsAt'] ?? null) ? $body['resetsAt'] : null,
            ),
            $status === 402 => new InsufficientCreditsException(...$args, creditsRemaining: self::intOrNull($body['creditsRemaining'] ?? null)),
            $status === 404 => new NotFoundException(...$args),
            $status === 429 => new RateLimitException(...$args, retryAfter: $response->retryAfter()),
            $status === 503 => new ServiceUnavailableException(...$args, retryAfter: $response->retryAfter()),
            in_array($status, [400, 405, 413, 415, 422], true) => new InvalidRequestException(...$args, fields: self::fields($body['errors'] ?? null)),
            default => new ApiException(...$args),
        };
    }

    private static function intOrNull(mixed $value): ?int
    {
        return is_int($value) ? $value : null;
    }

    /** @return array<string, string> */
    private static function fields(mixed $errors): array
    {
        return is_array($errors) ? array_map('strval', array_filter($errors, 'is_scalar')) : [];
    }
}
