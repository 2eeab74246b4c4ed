<?php

declare(strict_types=1);

namespace A2E;

/** A page of listing requests, newest first. json_encode() gives the API's field names. */
final class ListingPage
{
    /**
     * @param list<Listing> $data       the listings of this page
     * @param string|null   $nextCursor pass it as 'cursor' for the next page; null on the last one
     */
    public function __construct(
        public readonly array $data,
        public readonly ?string $nextCursor,
    ) {
    }

    /** @internal the page of an API answer */
    public static function fromApi(array $data): self
    {
        return new self(
            array_map(static fn (array $item) => Listing::fromApi($item), $data['data'] ?? []),
            isset($data['nextCursor']) ? (string) $data['nextCursor'] : null,
        );
    }
}
