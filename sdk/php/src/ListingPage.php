<?php

declare(strict_types=1);

namespace A2E;

use A2E\Internal\ApiFields;

/** A page of listing requests, newest first. json_encode() gives the API's field names. */
final class ListingPage implements \JsonSerializable
{
    use ApiFields;

    /**
     * @param list<Listing> $data       the listings of this page
     * @param string|null   $nextCursor pass it as 'cursor' for the next page; null on the last one
     * @param RateLimit|null $rateLimit the key's rate limit after this call
     */
    public function __construct(
        public readonly array $data,
        public readonly ?string $nextCursor,
        public readonly ?RateLimit $rateLimit = null,
    ) {
    }

    /** @internal the page of an API answer */
    public static function fromApi(array $data, ?RateLimit $rateLimit = null): self
    {
        return new self(
            array_map(static fn (array $item) => Listing::fromApi($item), $data['data'] ?? []),
            isset($data['nextCursor']) ? (string) $data['nextCursor'] : null,
            $rateLimit,
        );
    }
}
