<?php

declare(strict_types=1);

namespace A2E\Exception;

/** 429 rate_limited: past the key's rate limit, on every try. */
class RateLimitException extends A2EException
{
    public function __construct(
        string $message,
        ?string $errorCode = null,
        ?int $status = null,
        ?string $requestId = null,
        ?string $idempotencyKey = null,
        private readonly ?float $retryAfter = null,
    ) {
        parent::__construct($message, $errorCode, $status, $requestId, $idempotencyKey);
    }

    /** The seconds the server asked to wait (Retry-After); null when it did not say. */
    public function getRetryAfter(): ?float
    {
        return $this->retryAfter;
    }
}
