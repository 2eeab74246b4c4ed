<?php

declare(strict_types=1);

/*
 * A webhook receiver for WebhookTest.php, run as
 * `php -S 127.0.0.1:PORT tests/webhook-receiver.php` with A2E_WEBHOOK_SECRET
 * set: verifies each POST with \A2E\Webhook::verify and answers 200 with the
 * event as JSON, or 400 with the exception's code.
 */

require __DIR__ . '/../autoload.php';

try {
    $event = \A2E\Webhook::verify((string) file_get_contents('php://input'), $_SERVER['HTTP_A2E_SIGNATURE'] ?? null,
        (string) getenv('A2E_WEBHOOK_SECRET'));
    header('Content-Type: application/json');
    echo json_encode($event, JSON_UNESCAPED_UNICODE);
} catch (\A2E\Exception\WebhookVerificationException $e) {
    http_response_code(400);
    echo $e->getErrorCode();
}
