<?php

declare(strict_types=1);

namespace A2E\Exception;

/**
 * Every failure of a call: an HTTP answer that is not a success (getStatus()
 * set), or no answer at all (ConnectionException). It never holds the API key.
 */
class A2EException extends \RuntimeException
{
    /**
     * @param string      $message        what went wrong, in English, for people
     * @param string|null $errorCode      the API's stable snake_case code, such as "insufficient_credits"
     * @param int|null    $status         the HTTP status; null when there was no answer
     * @param string|null $requestId      the server's id of the request, to quote to support
     * @param string|null $idempotencyKey the Idempotency-Key a create sent, on every attempt
     */
    public function __construct(
        string $message,
        private readonly ?string $errorCode = null,
        private readonly ?int $status = null,
        private readonly ?string $requestId = null,
        private readonly ?string $idempotencyKey = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, 0, $previous);
    }

    /** The API's stable snake_case code (branch on it, not on the message); null without one. */
    public function getErrorCode(): ?string
    {
        return $this->errorCode;
    }

    /** The HTTP status; null when there was no HTTP answer. */
    public function getStatus(): ?int
    {
        return $this->status;
    }

    /** The server's id of the request (the X-Request-ID header), to quote to support. */
    public function getRequestId(): ?string
    {
        return $this->requestId;
    }

    /**
     * The Idempotency-Key a create sent: store it with the pending operation and
     * resolve it later with $client->listings->findByIdempotencyKey($key).
     * Null for the other calls.
     */
    public function getIdempotencyKey(): ?string
    {
        return $this->idempotencyKey;
    }
}
