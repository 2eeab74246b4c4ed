<?php

declare(strict_types=1);

namespace A2E;

/**
 * The body of a webhook delivery, as \A2E\Webhook::verify() returns it.
 * json_encode() gives the body's field names.
 */
final class WebhookEvent implements \JsonSerializable
{
    /**
     * @param string               $id        the event's id, the same on every attempt and resend (handle each id once)
     * @param string               $type      the event's type, such as "credits.granted"
     * @param string               $createdAt when the event happened in the account's ledger (RFC 3339, as the body has it)
     * @param array<string, mixed> $data      the type's fields (see the webhooks guide)
     */
    public function __construct(
        public readonly string $id,
        public readonly string $type,
        public readonly string $createdAt,
        public readonly array $data,
    ) {
    }

    /** @return array{id: string, type: string, createdAt: string, data: array<string, mixed>} */
    public function jsonSerialize(): array
    {
        return ['id' => $this->id, 'type' => $this->type, 'createdAt' => $this->createdAt, 'data' => $this->data];
    }
}
