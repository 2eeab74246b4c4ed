<?php

declare(strict_types=1);

namespace A2E\Exception;

/**
 * 402 spend_limit_reached: a daily or monthly spend limit the seller set on the dashboard is
 * reached; nothing was charged. Retry after getResetsAt(), or raise the limit.
 */
class SpendLimitReachedException extends A2EException
{
    public function __construct(
        string $message,
        ?string $errorCode = null,
        ?int $status = null,
        ?string $requestId = null,
        ?string $idempotencyKey = null,
        private readonly ?string $period = null,
        private readonly ?int $limit = null,
        private readonly ?int $spent = null,
        private readonly ?string $resetsAt = null,
    ) {
        parent::__construct($message, $errorCode, $status, $requestId, $idempotencyKey);
    }

    /** Which limit was reached: "daily" (per UTC day) or "monthly" (per billing month). */
    public function getPeriod(): ?string
    {
        return $this->period;
    }

    /** The limit, in credits. */
    public function getLimit(): ?int
    {
        return $this->limit;
    }

    /** Credits spent in the limit's current period. */
    public function getSpent(): ?int
    {
        return $this->spent;
    }

    /** When the period ends and spending may resume (RFC 3339, UTC). */
    public function getResetsAt(): ?string
    {
        return $this->resetsAt;
    }
}
