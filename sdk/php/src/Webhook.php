<?php

declare(strict_types=1);

namespace A2E;

use A2E\Exception\WebhookHeaderException;
use A2E\Exception\WebhookPayloadException;
use A2E\Exception\WebhookSignatureException;
use A2E\Exception\WebhookTimestampException;

/**
 * Checks webhook deliveries: the A2E-Signature header and the event.
 *
 *     $event = \A2E\Webhook::verify(file_get_contents('php://input'),
 *         $_SERVER['HTTP_A2E_SIGNATURE'] ?? '', getenv('A2E_WEBHOOK_SECRET'));
 */
final class Webhook
{
    /** The header a delivery is signed in. */
    public const SIGNATURE_HEADER = 'A2E-Signature';

    /** How many seconds a delivery's signed time may be from now, either way, by default. */
    public const DEFAULT_TOLERANCE = 300;

    /**
     * Checks a webhook delivery and returns its event.
     *
     * The header is "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">",
     * with two v1 while a rolled secret's old one is still valid: any one
     * matching (compared in constant time) is enough. The signature is checked
     * before the time.
     *
     * @param string   $payload   the request body exactly as received (php://input), before any json_decode
     * @param string   $header    the A2E-Signature header ($_SERVER['HTTP_A2E_SIGNATURE'])
     * @param string   $secret    the endpoint's signing secret ("whsec_…"); the HMAC key is the whole string's UTF-8 bytes
     * @param int      $tolerance seconds the signed time may be from now, either way
     * @param int|null $now       the current Unix time (default the clock's)
     *
     * @throws WebhookSignatureException|WebhookTimestampException|WebhookHeaderException|WebhookPayloadException
     * @throws \InvalidArgumentException an empty secret, or a tolerance that is not positive
     */
    public static function verify(
        string $payload,
        ?string $header,
        string $secret,
        int $tolerance = self::DEFAULT_TOLERANCE,
        ?int $now = null,
    ): WebhookEvent {
        if ($secret === '') {
            throw new \InvalidArgumentException('Webhook::verify: the secret is empty');
        }
        if ($tolerance <= 0) {
            throw new \InvalidArgumentException('Webhook::verify: the tolerance must be a positive number of seconds');
        }
        [$t, $signatures] = self::parseHeader($header ?? '');
        $expected = hash_hmac('sha256', $t . '.' . $payload, $secret, true);
        $matched = false;
        foreach ($signatures as $signature) {
            $matched = hash_equals($expected, $signature) || $matched;
        }
        if (!$matched) {
            throw new WebhookSignatureException('No v1 signature matches the body and timestamp with this secret', 'signature_mismatch');
        }
        $age = abs(($now ?? time()) - $t);
        if ($age > $tolerance) {
            throw new WebhookTimestampException("t=$t is $age s from now, over the tolerance of $tolerance s", 'timestamp_outside_tolerance');
        }
        return self::parseEvent($payload);
    }

    /**
     * The header's t and its v1 signatures, decoded; other schemes are ignored.
     *
     * @return array{int, list<string>}
     */
    private static function parseHeader(string $header): array
    {
        $malformed = static fn (string $message) => new WebhookHeaderException($message, 'malformed_header');
        if (trim($header) === '') {
            throw $malformed('The A2E-Signature header is empty');
        }
        $t = null;
        $signatures = [];
        foreach (explode(',', $header) as $part) {
            $pair = explode('=', trim($part), 2);
            if (count($pair) !== 2) {
                throw $malformed('A part of the A2E-Signature header is not key=value');
            }
            [$key, $value] = $pair;
            if ($key === 't') {
                if ($t !== null) {
                    throw $malformed('t is given twice');
                }
                if (preg_match('/^[0-9]{1,15}$/D', $value) !== 1) {
                    throw $malformed('t is not Unix seconds');
                }
                $t = (int) $value;
            } elseif ($key === 'v1') {
                if (preg_match('/^[0-9a-fA-F]{64}$/D', $value) !== 1) {
                    throw $malformed('A v1 is not 64 hex digits');
                }
                $signatures[] = (string) hex2bin($value);
            }
        }
        if ($t === null) {
            throw $malformed('The A2E-Signature header has no t');
        }
        if ($signatures === []) {
            throw $malformed('The A2E-Signature header has no v1 signature');
        }
        return [$t, $signatures];
    }

    /** The event of a verified body. */
    private static function parseEvent(string $payload): WebhookEvent
    {
        $malformed = static fn (string $message, ?\Throwable $previous = null) =>
            new WebhookPayloadException($message, 'malformed_payload', previous: $previous);
        try {
            $event = json_decode($payload, false, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException $e) {
            throw $malformed('The body is not JSON', $e);
        }
        if (!$event instanceof \stdClass) {
            throw $malformed('The body is not a JSON object');
        }
        $id = $event->id ?? null;
        $type = $event->type ?? null;
        $createdAt = $event->createdAt ?? null;
        if (!is_string($id) || $id === '' || !is_string($type) || $type === '' || !is_string($createdAt)) {
            throw $malformed('The body lacks id, type or createdAt');
        }
        if (preg_match('/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/Di', $createdAt) !== 1) {
            throw $malformed('createdAt is not an RFC 3339 time');
        }
        if (!($event->data ?? null) instanceof \stdClass) {
            throw $malformed('data is not a JSON object');
        }
        // Decoded again as arrays: objects were needed to tell {} from [].
        $body = json_decode($payload, true, 512, JSON_THROW_ON_ERROR);
        return new WebhookEvent($id, $type, $createdAt, $body['data']);
    }
}
