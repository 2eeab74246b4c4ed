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
     * The whole seconds of Retry-After (delay-seconds or an HTTP date); null without a usable one,
     * and for 0, a negative value or a past date (as absent: the backoff applies).
     */
    public function retryAfter(?int $now = null): ?int
    {
        $value = trim($this->headers['retry-after'] ?? '');
        if ($value === '') {
            return null;
        }
        if (preg_match('/^-?\d+$/', $value)) {
            $seconds = (int) $value;
        } else {
            $at = \DateTimeImmutable::createFromFormat(DATE_RFC7231, $value, new \DateTimeZone('UTC'));
            if ($at === false) {
                return null;
            }
            $seconds = $at->getTimestamp() - ($now ?? time());
        }
        return $seconds > 0 ? $seconds : null;
    }
}
