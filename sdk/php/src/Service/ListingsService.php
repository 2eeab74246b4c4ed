<?php

declare(strict_types=1);

namespace A2E\Service;

use A2E\Exception\A2EException;
use A2E\Exception\ServiceUnavailableException;
use A2E\Internal\IdempotencyKey;
use A2E\Internal\Transport;
use A2E\Listing;
use A2E\ListingPage;

/** Listing requests: create (1 credit), read back and list (free). Reached as $client->listings. */
class ListingsService
{
    /** @internal built by the Client */
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * Requests a listing of an Amazon product (1 credit).
     *
     * Every attempt sends the same Idempotency-Key and the same body bytes, so
     * retries never charge twice. When the server cannot tell whether the
     * charge was applied (commit_outcome_unknown) even after the retries, the
     * listing is read back by the key once: found, it is the result (its
     * creditsRemaining is then null); not found, ServiceUnavailableException
     * with isOutcomeUnknown() is thrown.
     *
     * @param array{amazonUrl: string}         $params  the request body
     * @param array{idempotency_key?: string}  $options the key to send (default a fresh UUID v4);
     *                                                  store it to resolve a pending operation later
     * @return Listing its idempotencyKey is the key sent
     * @throws A2EException every exception carries the key in getIdempotencyKey()
     * @throws \InvalidArgumentException on an unknown option or a key that is not a non-empty string
     */
    public function create(array $params, array $options = []): Listing
    {
        $key = IdempotencyKey::of($options);
        $body = json_encode($params, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        try {
            $result = $this->transport->request('POST', '/v1/listings', body: $body, idempotencyKey: $key);
            return Listing::fromApi($result->data, $key, $result->rateLimit);
        } catch (ServiceUnavailableException $e) {
            if (!$e->isOutcomeUnknown()) {
                throw $e;
            }
            $this->transport->pause($e->getRetryAfter());
            return $this->readBack($key) ?? throw $e;
        }
    }

    /**
     * One of the account's listing requests, by id (free).
     *
     * @throws A2EException NotFoundException when the account has no such listing
     */
    public function retrieve(string $id): Listing
    {
        if ($id === '') {
            throw new \InvalidArgumentException('A listing id is required');
        }
        $result = $this->transport->request('GET', '/v1/listings/' . rawurlencode($id));
        return Listing::fromApi($result->data, rateLimit: $result->rateLimit);
    }

    /**
     * A page of the account's listing requests, newest first (free); with
     * 'idempotencyKey', the one listing that key created, or none.
     *
     * @param array{limit?: int, cursor?: string, idempotencyKey?: string} $params limit 1 to 100 (default 20)
     * @throws A2EException
     */
    public function list(array $params = []): ListingPage
    {
        $result = $this->transport->request('GET', '/v1/listings', $params);
        return ListingPage::fromApi($result->data, $result->rateLimit);
    }

    /**
     * Every listing of the account, newest first, fetching page after page
     * (following nextCursor) as the loop goes, as Stripe's autoPagingIterator
     * does (free):
     *
     *     foreach ($client->listings->listAll(['limit' => 100]) as $listing) { ... }
     *
     * 'limit' is the page size; 'cursor', if given, is where it starts. Each
     * page is one read, retried as any read; an error is thrown by the loop.
     *
     * @param array{limit?: int, cursor?: string} $params
     * @return \Generator<int, Listing>
     * @throws A2EException
     */
    public function listAll(array $params = []): \Generator
    {
        do {
            $page = $this->list($params);
            yield from $page->data;
            $params['cursor'] = $page->nextCursor;
        } while ($page->nextCursor !== null);
    }

    /**
     * The listing an Idempotency-Key created, or null when none was (free). It
     * reads the ledger, so it answers after the 24 h replay window too: the way
     * to resolve a create whose outcome is unknown.
     *
     * @throws A2EException
     */
    public function findByIdempotencyKey(string $idempotencyKey): ?Listing
    {
        return self::first($this->list(['idempotencyKey' => $idempotencyKey]));
    }

    /** The page's first listing, with the page's rate limit; null on an empty page. */
    private static function first(ListingPage $page): ?Listing
    {
        $l = $page->data[0] ?? null;
        return $l === null ? null : new Listing($l->id, $l->asin, $l->amazonUrl, $l->status, $l->creditsRemaining,
            $l->createdAt, $l->idempotencyKey, $l->requestId, $page->rateLimit);
    }

    /** The listing $key created, read once (no retries); null when none was or the read failed. */
    private function readBack(string $key): ?Listing
    {
        try {
            $result = $this->transport->request('GET', '/v1/listings', ['idempotencyKey' => $key], maxRetries: 0);
        } catch (A2EException) {
            return null;
        }
        return self::first(ListingPage::fromApi($result->data, $result->rateLimit));
    }
}
