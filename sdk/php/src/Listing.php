<?php

declare(strict_types=1);

namespace A2E;

use A2E\Internal\ApiFields;

/**
 * A listing request: an Amazon product to copy to eBay. json_encode() gives
 * the API's field names.
 */
final class Listing implements \JsonSerializable
{
    use ApiFields;

    /**
     * @param string      $id               the listing's id
     * @param string      $asin             the Amazon product's ASIN
     * @param string      $amazonUrl        the canonical address https://www.amazon.<marketplace>/dp/<ASIN>
     * @param string      $status           such as "queued"
     * @param int|null    $creditsRemaining the balance after the charge; only on the answer of a create
     *                                      (a replay's is the first answer's), null when read back
     * @param string      $createdAt        RFC 3339 time, as the API wrote it
     * @param string|null $idempotencyKey   the Idempotency-Key that created it, when known
     * @param string|null $requestId        the id of the request that created (and charged) it, on a
     *                                      listing read back; null on a create's answer
     * @param RateLimit|null $rateLimit     the key's rate limit after the call that answered it
     *                                      (null on the listings of a page)
     * @param string|null $mode             "test" for a listing made in test mode (the sandbox); null when live
     */
    public function __construct(
        public readonly string $id,
        public readonly string $asin,
        public readonly string $amazonUrl,
        public readonly string $status,
        public readonly ?int $creditsRemaining,
        public readonly string $createdAt,
        public readonly ?string $idempotencyKey,
        public readonly ?string $requestId = null,
        public readonly ?RateLimit $rateLimit = null,
        public readonly ?string $mode = null,
    ) {
    }

    /**
     * @internal the listing of an API answer; $idempotencyKey when the answer does not name one
     */
    public static function fromApi(array $data, ?string $idempotencyKey = null, ?RateLimit $rateLimit = null): self
    {
        return new self(
            (string) ($data['id'] ?? ''),
            (string) ($data['asin'] ?? ''),
            (string) ($data['amazonUrl'] ?? ''),
            (string) ($data['status'] ?? ''),
            isset($data['creditsRemaining']) ? (int) $data['creditsRemaining'] : null,
            (string) ($data['createdAt'] ?? ''),
            isset($data['idempotencyKey']) ? (string) $data['idempotencyKey'] : $idempotencyKey,
            isset($data['requestId']) ? (string) $data['requestId'] : null,
            $rateLimit,
            isset($data['mode']) ? (string) $data['mode'] : null,
        );
    }
}
