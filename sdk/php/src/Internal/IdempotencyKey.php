<?php

declare(strict_types=1);

namespace A2E\Internal;

/**
 * The Idempotency-Key a create sends.
 *
 * @internal
 */
final class IdempotencyKey
{
    /**
     * The options' idempotency_key, or a fresh UUID v4.
     *
     * @param array{idempotency_key?: string} $options
     * @throws \InvalidArgumentException on another option, or a key that is not a non-empty string
     */
    public static function of(array $options): string
    {
        if (array_diff(array_keys($options), ['idempotency_key']) !== []) {
            throw new \InvalidArgumentException('create() takes one option: idempotency_key');
        }
        $key = $options['idempotency_key'] ?? self::uuid4();
        if (!is_string($key) || $key === '') {
            throw new \InvalidArgumentException('idempotency_key must be a non-empty string');
        }
        return $key;
    }

    /** A random UUID version 4 (RFC 9562). */
    private static function uuid4(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr(ord($bytes[6]) & 0x0f | 0x40);
        $bytes[8] = chr(ord($bytes[8]) & 0x3f | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
