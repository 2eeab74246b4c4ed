<?php

declare(strict_types=1);

namespace A2E\Internal;

/**
 * One HTTP answer as received.
 *
 * @internal
 */
final class Response
{
    /** @param array<string, string> $headers by lower-case name */
    public function __construct(
        public readonly int $status,
        public readonly array $headers,
        public readonly string $body,
    ) {
    }

    /** The body as a JSON object, or null when it is not one. */
    public function json(): ?array
    {
        $data = json_decode($this->body, true);
        return is_array($data) ? $data : null;
    }

    /**
     * The seconds of Retry-After: whole or decimal seconds (digits, optionally a dot and digits:
     * 1.5) or an HTTP date; null without a usable one (1e3, .5), and for 0, a negative value or a
     * past date (as absent: the backoff applies). The vectors every SDK shares:
     * sdk/conformance/retry-after.json.
     */
    public function retryAfter(?int $now = null): ?float
    {
        $value = trim($this->headers['retry-after'] ?? '');
        if ($value === '') {
            return null;
        }
        if (preg_match('/^[0-9]+(\.[0-9]+)?$/D', $value)) {
            $seconds = (float) $value;
        } else {
            $at = \DateTimeImmutable::createFromFormat(DATE_RFC7231, $value, new \DateTimeZone('UTC'));
            if ($at === false) {
                return null;
            }
            $seconds = (float) ($at->getTimestamp() - ($now ?? time()));
        }
        return $seconds > 0 ? $seconds : null;
    }
}
