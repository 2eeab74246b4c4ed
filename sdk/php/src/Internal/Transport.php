<?php

declare(strict_types=1);

namespace A2E\Internal;

use A2E\Client;
use A2E\Exception\A2EException;
use A2E\Exception\ApiException;
use A2E\Exception\ConnectionException;
use A2E\RateLimit;

/**
 * Sends the API's requests with curl and retries them as sdk/README.md says:
 * network errors, 429 and 503 always; 500, 502 and 504 when the request is a
 * read or carries an Idempotency-Key. The wait is Retry-After (capped), else
 * exponential backoff with full jitter.
 *
 * @internal
 */
final class Transport
{
    private const RETRY_AFTER_CAP = 20.0;
    private const BACKOFF_BASE = 0.5;
    private const BACKOFF_CAP = 8.0;

    private ?\CurlHandle $curl = null;

    /**
     * The API key, behind a closure: var_export() shows no closure's variables
     * and serialize() refuses one (__debugInfo covers var_dump and print_r).
     *
     * @var \Closure(): string
     */
    private readonly \Closure $apiKey;

    /** @param \Closure(float): void $sleeper waits so many seconds */
    public function __construct(
        #[\SensitiveParameter] string $apiKey,
        private readonly string $baseUrl,
        private readonly int $maxRetries,
        private readonly float $timeout,
        private readonly \Closure $sleeper,
    ) {
        $this->apiKey = static fn (): string => $apiKey;
    }

    /**
     * Sends the request until it succeeds or the retries run out, and answers
     * the body's JSON object with the answer's rate limit.
     *
     * @param array<string, scalar|null> $query      parameters; null ones are left out
     * @param string|null                $body       JSON, sent as is on every attempt
     * @param int|null                   $maxRetries this request's own bound instead of the client's
     * @throws A2EException
     */
    public function request(
        string $method,
        string $path,
        array $query = [],
        ?string $body = null,
        ?string $idempotencyKey = null,
        ?int $maxRetries = null,
    ): Result {
        $url = $this->baseUrl . $path;
        $query = array_filter($query, static fn ($v) => $v !== null);
        if ($query !== []) {
            $url .= '?' . http_build_query($query, '', '&', PHP_QUERY_RFC3986);
        }
        $retries = $maxRetries ?? $this->maxRetries;
        $safe = $method === 'GET' || $idempotencyKey !== null;
        for ($attempt = 0; ; $attempt++) {
            try {
                $response = $this->send($method, $url, $body, $idempotencyKey);
            } catch (ConnectionException $e) {
                if ($attempt >= $retries) {
                    throw $e;
                }
                $this->wait($attempt, null);
                continue;
            }
            if ($response->status >= 200 && $response->status < 300) {
                return new Result($this->decode($response, $idempotencyKey), RateLimit::fromHeaders($response->headers));
            }
            $retryable = in_array($response->status, [429, 503], true)
                || ($safe && in_array($response->status, [500, 502, 504], true));
            if (!$retryable || $attempt >= $retries) {
                throw ErrorFactory::fromResponse($response, $idempotencyKey);
            }
            $this->wait($attempt, $response->retryAfter());
        }
    }

    /**
     * One attempt.
     *
     * @throws ConnectionException when no answer came
     */
    private function send(string $method, string $url, ?string $body, ?string $idempotencyKey): Response
    {
        $this->curl ??= curl_init();
        curl_reset($this->curl);
        $headers = ['X-API-Key: ' . ($this->apiKey)(), 'Accept: application/json', 'User-Agent: ' . self::userAgent()];
        if ($body !== null) {
            $headers[] = 'Content-Type: application/json';
            curl_setopt($this->curl, CURLOPT_POSTFIELDS, $body);
        }
        if ($idempotencyKey !== null) {
            $headers[] = 'Idempotency-Key: ' . $idempotencyKey;
        }
        $received = [];
        $timeoutMs = (int) ceil($this->timeout * 1000);
        curl_setopt_array($this->curl, [
            CURLOPT_URL => $url,
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $headers,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => $timeoutMs,
            CURLOPT_CONNECTTIMEOUT_MS => $timeoutMs,
            CURLOPT_NOSIGNAL => true,
            CURLOPT_HEADERFUNCTION => static function ($curl, string $line) use (&$received): int {
                if (str_starts_with($line, 'HTTP/')) {
                    $received = []; // a new answer (after 100 Continue)
                } elseif (str_contains($line, ':')) {
                    [$name, $value] = explode(':', $line, 2);
                    $received[strtolower(trim($name))] = trim($value);
                }
                return strlen($line);
            },
        ]);
        $raw = curl_exec($this->curl);
        if ($raw === false) {
            throw new ConnectionException(
                sprintf('Could not reach the A2E API (curl error %d: %s)', curl_errno($this->curl), curl_error($this->curl)),
                idempotencyKey: $idempotencyKey,
            );
        }
        return new Response(curl_getinfo($this->curl, CURLINFO_RESPONSE_CODE), $received, $raw);
    }

    /** A success's JSON object; an ApiException when the body is not one. */
    private function decode(Response $response, ?string $idempotencyKey): array
    {
        return $response->json() ?? throw new ApiException(
            'The API answered a success whose body is not a JSON object',
            status: $response->status,
            requestId: $response->headers['x-request-id'] ?? null,
            idempotencyKey: $idempotencyKey,
        );
    }

    /** The User-Agent of every request: a2e-sdk-php/<version>. */
    public static function userAgent(): string
    {
        return 'a2e-sdk-php/' . Client::VERSION;
    }

    /** Waits as before a first retry: a COMMIT whose answer was cut may still be landing. */
    public function pause(?float $retryAfter): void
    {
        $this->wait(0, $retryAfter);
    }

    /**
     * Waits before retry number $attempt + 1: Retry-After when the server gave
     * one (capped), else full-jitter exponential backoff.
     */
    private function wait(int $attempt, ?float $retryAfter): void
    {
        if ($retryAfter !== null && $retryAfter > 0) {
            $seconds = min($retryAfter, self::RETRY_AFTER_CAP);
        } else {
            $cap = min(self::BACKOFF_CAP, self::BACKOFF_BASE * 2 ** $attempt);
            $seconds = $cap * random_int(0, PHP_INT_MAX) / PHP_INT_MAX;
        }
        ($this->sleeper)($seconds);
    }

    /** @return array<string, mixed> the transport without its API key, for var_dump and print_r */
    public function __debugInfo(): array
    {
        return ['baseUrl' => $this->baseUrl, 'maxRetries' => $this->maxRetries, 'timeout' => $this->timeout];
    }
}
