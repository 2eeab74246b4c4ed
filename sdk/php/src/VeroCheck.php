<?php

declare(strict_types=1);

namespace A2E;

use A2E\Internal\ApiFields;

/**
 * The outcome of a check of a brand against the VeRO protected-brand list.
 * json_encode() gives the API's field names (and idempotencyKey).
 */
final class VeroCheck implements \JsonSerializable
{
    use ApiFields;

    /**
     * @param string         $id               the check's id
     * @param string         $brand            the brand as asked, trimmed and with inner whitespace collapsed
     * @param bool           $protected        whether the brand is on the VeRO protected-brand list
     * @param int            $creditsRemaining the balance after the charge (a replay's is the first answer's)
     * @param string         $idempotencyKey   the Idempotency-Key that was sent
     * @param RateLimit|null $rateLimit        the key's rate limit after this call
     * @param string|null    $mode             "test" for a test-mode key (paid with a test credit); null when live
     */
    public function __construct(
        public readonly string $id,
        public readonly string $brand,
        public readonly bool $protected,
        public readonly int $creditsRemaining,
        public readonly string $idempotencyKey,
        public readonly ?RateLimit $rateLimit = null,
        public readonly ?string $mode = null,
    ) {
    }

    /** @internal the check of an API answer */
    public static function fromApi(array $data, string $idempotencyKey, ?RateLimit $rateLimit = null): self
    {
        return new self(
            (string) ($data['id'] ?? ''),
            (string) ($data['brand'] ?? ''),
            (bool) ($data['protected'] ?? false),
            (int) ($data['creditsRemaining'] ?? 0),
            $idempotencyKey,
            $rateLimit,
            isset($data['mode']) ? (string) $data['mode'] : null,
        );
    }
}
