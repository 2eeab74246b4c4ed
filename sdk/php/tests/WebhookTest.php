<?php

declare(strict_types=1);

// Webhook::verify: the vectors every SDK shares, the clock, and a receiver over real HTTP.

namespace A2E\Tests;

use A2E\Exception\A2EException;
use A2E\Exception\WebhookHeaderException;
use A2E\Exception\WebhookPayloadException;
use A2E\Exception\WebhookSignatureException;
use A2E\Exception\WebhookTimestampException;
use A2E\Exception\WebhookVerificationException;
use A2E\Webhook;

const WEBHOOK_KINDS = [
    'signature_mismatch' => WebhookSignatureException::class,
    'timestamp_outside_tolerance' => WebhookTimestampException::class,
    'malformed_header' => WebhookHeaderException::class,
    'malformed_payload' => WebhookPayloadException::class,
];

function signWebhook(string $secret, int $t, string $body): string
{
    return "t=$t,v1=" . hash_hmac('sha256', "$t.$body", $secret);
}

test('Webhook::verify follows the vectors every SDK shares', function (Fixture $f) {
    $file = json_decode((string) file_get_contents(__DIR__ . '/../../conformance/webhook-vectors.json'), true, 512, JSON_THROW_ON_ERROR);
    assertTrue(count($file['vectors']) > 0, 'no vectors');
    foreach ($file['vectors'] as $v) {
        $call = static fn () => Webhook::verify($v['payload'], $v['header'], $v['secret'], $v['tolerance'], $v['now']);
        if (isset($v['event'])) {
            assertSame($v['event'], $call()->jsonSerialize(), $v['name']);
            continue;
        }
        $e = assertThrows(WEBHOOK_KINDS[$v['error']], $call);
        assertTrue($e instanceof WebhookVerificationException && $e instanceof A2EException, $v['name'] . ': not a WebhookVerificationException');
        assertSame($v['error'], $e->getErrorCode(), $v['name']);
        assertTrue(!str_contains($e->getMessage(), $v['secret']), $v['name'] . ': the message shows the secret');
    }
});

test('Webhook::verify checks the time against the clock, 300 s by default', function (Fixture $f) {
    $secret = 'whsec_clock';
    $body = '{"id":"e1","type":"balance.low","createdAt":"2026-01-02T03:04:05Z","data":{"creditsAvailable":3}}';
    $now = time();
    assertSame('balance.low', Webhook::verify($body, signWebhook($secret, $now - 10, $body), $secret)->type);
    assertSame('e1', Webhook::verify($body, signWebhook($secret, $now - 290, $body), $secret)->id);
    assertThrows(WebhookTimestampException::class, fn () => Webhook::verify($body, signWebhook($secret, $now - 400, $body), $secret));
    assertSame('e1', Webhook::verify($body, signWebhook($secret, $now - 400, $body), $secret, 600)->id);
    assertThrows(WebhookHeaderException::class, fn () => Webhook::verify($body, null, $secret));
    assertThrows(\InvalidArgumentException::class, fn () => Webhook::verify($body, signWebhook($secret, $now, $body), ''));
    assertThrows(\InvalidArgumentException::class, fn () => Webhook::verify($body, signWebhook($secret, $now, $body), $secret, 0));
});

test('a receiver over HTTP verifies the raw body and refuses a changed one', function (Fixture $f) {
    $secret = 'whsec_receiver';
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
    fclose($server);
    $null = ['file', '/dev/null', 'w'];
    $process = proc_open([PHP_BINARY, '-S', "127.0.0.1:$port", __DIR__ . '/webhook-receiver.php'], [['file', '/dev/null', 'r'], $null, $null],
        $pipes, null, ['A2E_WEBHOOK_SECRET' => $secret] + getenv()) ?: throw new \RuntimeException('could not start the receiver');
    try {
        for ($i = 0; $i < 100 && ($socket = @fsockopen('127.0.0.1', $port, $errno, $error, 0.1)) === false; $i++) {
            usleep(50_000);
        }
        $body = '{"id":"e2","type":"credits.granted","createdAt":"2026-01-02T03:04:05Z","data":{"credits":100,"note":"für"}}';
        $header = signWebhook($secret, time(), $body);
        $post = static function (string $b) use ($port, $header): array {
            $ch = curl_init("http://127.0.0.1:$port/");
            curl_setopt_array($ch, [CURLOPT_POST => true, CURLOPT_POSTFIELDS => $b, CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 10,
                CURLOPT_HTTPHEADER => ["A2E-Signature: $header", 'Content-Type: application/json']]);
            $answer = (string) curl_exec($ch);
            $status = curl_getinfo($ch, CURLINFO_RESPONSE_CODE);
            curl_close($ch);
            return [$status, $answer];
        };
        assertSame([200, $body], $post($body));
        assertSame([400, 'signature_mismatch'], $post(str_replace('100', '900', $body)));
    } finally {
        proc_terminate($process);
        proc_close($process);
    }
});
