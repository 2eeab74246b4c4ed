<?php

declare(strict_types=1);

namespace A2E;

use A2E\Internal\Transport;
use A2E\Service\AccountService;
use A2E\Service\ListingsService;
use A2E\Service\VeroChecksService;

/**
 * The client of the A2E desktop API (/v1), with one API key.
 *
 *     $client = new \A2E\Client(['api_key' => getenv('A2E_API_KEY'), 'base_url' => 'https://api.example.com']);
 *     $listing = $client->listings->create(['amazonUrl' => 'https://www.amazon.com/dp/B08N5WRWNW']);
 *
 * Failed requests are retried (network errors, 429 and 503, and 500, 502 and
 * 504 as every call is a read or carries an Idempotency-Key), waiting
 * Retry-After or a jittered backoff. Its string forms never show the API key.
 */
class Client
{
    public const VERSION = '0.1.0';

    private const DEFAULTS = ['max_retries' => 3, 'timeout' => 30, 'sleeper' => null];

    /** Listing requests: create, retrieve, list, listAll, findByIdempotencyKey. */
    public readonly ListingsService $listings;

    /** Checks of brands against the VeRO protected-brand list: create. */
    public readonly VeroChecksService $veroChecks;

    /** The account's credits and standing: retrieve. */
    public readonly AccountService $account;

    private readonly string $baseUrl;

    /**
     * @param array{api_key: string, base_url: string, max_retries?: int, timeout?: int|float, sleeper?: callable(float): void} $options
     *   api_key (required); base_url (required, no default: a forgotten one must not send the key in clear
     *   text to some default address), such as "https://api.example.com" (a trailing slash is ignored); max_retries, how many times a failed request is retried (default 3, 0 sends it once);
     *   timeout, seconds each attempt may take (default 30); sleeper, waits so many seconds between attempts
     *   (default usleep; tests pass their own)
     * @throws \InvalidArgumentException on a missing API key or base URL, or an unknown or ill-typed option
     */
    public function __construct(#[\SensitiveParameter] array $options)
    {
        $unknown = array_diff(array_keys($options), ['api_key', 'base_url', ...array_keys(self::DEFAULTS)]);
        if ($unknown !== []) {
            throw new \InvalidArgumentException('Unknown A2E client option: ' . implode(', ', $unknown));
        }
        $options += self::DEFAULTS;
        if (!is_string($options['api_key'] ?? null) || $options['api_key'] === '') {
            throw new \InvalidArgumentException('The A2E client needs an api_key');
        }
        if (!isset($options['base_url'])) {
            throw new \InvalidArgumentException('The A2E client needs a base_url, such as https://api.example.com');
        }
        if (!is_string($options['base_url']) || !preg_match('#^https?://[^/]#i', $options['base_url'])) {
            throw new \InvalidArgumentException('base_url must be an http:// or https:// address');
        }
        if (!is_int($options['max_retries']) || $options['max_retries'] < 0) {
            throw new \InvalidArgumentException('max_retries must be a whole number of at least 0');
        }
        if (!(is_int($options['timeout']) || is_float($options['timeout'])) || $options['timeout'] <= 0) {
            throw new \InvalidArgumentException('timeout must be a positive number of seconds');
        }
        $sleeper = $options['sleeper'] ?? static function (float $seconds): void {
            usleep((int) round($seconds * 1_000_000));
        };
        $this->baseUrl = rtrim($options['base_url'], '/');
        $transport = new Transport($options['api_key'], $this->baseUrl, $options['max_retries'], (float) $options['timeout'], \Closure::fromCallable($sleeper));
        $this->listings = new ListingsService($transport);
        $this->account = new AccountService($transport);
        $this->veroChecks = new VeroChecksService($transport);
    }

    /** Describes the client without its API key. */
    public function __toString(): string
    {
        return 'A2E\Client(' . $this->baseUrl . ')';
    }

    /** @return array<string, mixed> the client without its API key, for var_dump and print_r */
    public function __debugInfo(): array
    {
        return ['baseUrl' => $this->baseUrl];
    }
}
