<?php

declare(strict_types=1);

namespace A2E\Exception;

/** 402 insufficient_credits: no credits left; nothing was charged. */
class InsufficientCreditsException extends A2EException
{
    public function __construct(
        string $message,
        ?string $errorCode = null,
        ?int $status = null,
        ?string $requestId = null,
        ?string $idempotencyKey = null,
        private readonly ?int $creditsRemaining = null,
    ) {
        parent::__construct($message, $errorCode, $status, $requestId, $idempotencyKey);
    }

    /** The balance the server answered (0). */
    public function getCreditsRemaining(): ?int
    {
        return $this->creditsRemaining;
    }
}
