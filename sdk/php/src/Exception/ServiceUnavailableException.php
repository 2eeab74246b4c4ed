<?php

declare(strict_types=1);

namespace A2E\Exception;

/**
 * 503: service_unavailable (nothing was done) or commit_outcome_unknown (the
 * create may or may not have been applied), on every try.
 */
class ServiceUnavailableException extends A2EException
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

    /**
     * True when the server could not tell whether the create was applied and
     * neither the retries nor the read-back by Idempotency-Key settled it: keep
     * getIdempotencyKey() and resolve it later with findByIdempotencyKey().
     */
    public function isOutcomeUnknown(): bool
    {
        return $this->getErrorCode() === 'commit_outcome_unknown';
    }

    /** The seconds the server asked to wait (Retry-After); null when it did not say. */
    public function getRetryAfter(): ?float
    {
        return $this->retryAfter;
    }
}
