<?php

declare(strict_types=1);

namespace A2E;

/**
 * The API key's rate limit as the answer's X-RateLimit-* headers told it.
 * Every result has it as $rateLimit (null when the answer carried none), as
 * Stripe's SDKs expose a response's headers.
 */
final class RateLimit
{
    /**
     * @param int $limit     requests the key may make per minute (X-RateLimit-Limit)
     * @param int $remaining requests it may make right now, this one counted (X-RateLimit-Remaining)
     * @param int $reset     when the whole allowance is back, Unix seconds (X-RateLimit-Reset);
     *                       it refills continuously before then
     */
    public function __construct(
        public readonly int $limit,
        public readonly int $remaining,
        public readonly int $reset,
    ) {
    }

    /**
     * @internal the X-RateLimit-* headers (by lower-case name); null unless all three are whole numbers
     * @param array<string, string> $headers
     */
    public static function fromHeaders(array $headers): ?self
    {
        $values = [];
        foreach (['limit', 'remaining', 'reset'] as $name) {
            $value = trim($headers["x-ratelimit-$name"] ?? '');
            if (!preg_match('/^\d+$/', $value)) {
                return null;
            }
            $values[] = (int) $value;
        }
        return new self(...$values);
    }
}
