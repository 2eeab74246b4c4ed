<?php

declare(strict_types=1);

/*
 * A scripted HTTP server for the tests, run as
 * `php -S 127.0.0.1:PORT tests/fixture-server.php` with A2E_FIXTURE_DIR set.
 * Each request takes the next answer of DIR/script.json
 * ([{"status", "headers"?, "body"?, "delay"?}, ...]: body an object is sent
 * as JSON, a string as is; delay in seconds before answering) and is
 * recorded in DIR/requests.json, with the answer's status and code. An
 * exhausted script answers 599. With DIR/plan.json ({"GET": [answer...],
 * "POST": [...]}) a request takes the next answer of its method's list, the
 * last one repeated. The
 * server answers one request at a time: a delayed answer holds up the next.
 */

$dir = (string) getenv('A2E_FIXTURE_DIR');
$lock = fopen("$dir/lock", 'c');
flock($lock, LOCK_EX);
if (is_file("$dir/plan.json")) {
    // A case's plan (CaseFake.php): the answers by method, in order, the last one repeated.
    $plan = json_decode((string) file_get_contents("$dir/plan.json"), true);
    $answers = $plan[$_SERVER['REQUEST_METHOD']] ?? [];
    $answer = count($answers) > 1 ? array_shift($answers) : ($answers[0] ?? ['status' => 599, 'body' => ['code' => 'fixture_plan_has_none']]);
    $plan[$_SERVER['REQUEST_METHOD']] = $answers;
    file_put_contents("$dir/plan.json", json_encode($plan));
} else {
    $script = json_decode((string) @file_get_contents("$dir/script.json"), true) ?: [];
    $answer = array_shift($script) ?? ['status' => 599, 'body' => ['code' => 'fixture_script_exhausted']];
    file_put_contents("$dir/script.json", json_encode($script));
}
$requests = json_decode((string) @file_get_contents("$dir/requests.json"), true) ?: [];
$requests[] = [
    'method' => $_SERVER['REQUEST_METHOD'],
    'uri' => $_SERVER['REQUEST_URI'],
    'headers' => array_change_key_case(getallheaders(), CASE_LOWER),
    'body' => file_get_contents('php://input'),
    'answer' => ['status' => $answer['status'], 'code' => is_array($answer['body'] ?? null) ? ($answer['body']['code'] ?? null) : null],
];
file_put_contents("$dir/requests.json", json_encode($requests));
flock($lock, LOCK_UN);

usleep((int) (($answer['delay'] ?? 0) * 1_000_000));
http_response_code($answer['status']);
foreach ($answer['headers'] ?? [] as $name => $value) {
    header("$name: $value");
}
$body = $answer['body'] ?? '';
if (is_array($body)) {
    header('Content-Type: application/json');
    $body = json_encode($body);
}
echo $body;
