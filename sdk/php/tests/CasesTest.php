<?php

declare(strict_types=1);

// sdk/conformance/cases.json run through the conformance runner against the case-driven fake
// (CaseFake.php): each case's steps answered as the case says the server answers, the runner's line
// checked against `expect` and the requests against the protocol. test/sdk runs the same cases against
// the real bin/api.

namespace A2E\Tests;

require_once __DIR__ . '/CaseFake.php';

const CASES_API_KEY = 'a2e_test_cases_secret_0123456789';

/** Runs the runner once with $op: its exit status, standard output and standard error. */
function runCase(string $baseUrl, string $apiKey, array $op): array
{
    $env = ['A2E_BASE_URL' => $baseUrl, 'A2E_API_KEY' => $apiKey] + getenv();
    $process = proc_open([PHP_BINARY, __DIR__ . '/../conformance/runner.php'], [['pipe', 'r'], ['pipe', 'w'], ['pipe', 'w']], $pipes, null, $env);
    fwrite($pipes[0], json_encode($op));
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    return [proc_close($process), $out, $err];
}

foreach (Cases\cases() as $case) {
    test("case: {$case['name']}", function (Fixture $f) use ($case) {
        $vars = ['key' => 'key-' . bin2hex(random_bytes(8)), 'email' => 'seller@example.com', 'otherListingId' => bin2hex(random_bytes(8))];
        foreach ($case['steps'] as $i => $step) {
            $op = Cases\substitute($step['op'], $vars);
            $expect = Cases\substitute($step['expect'], $vars);
            $plan = Cases\plan($step, $op, $expect, $vars);
            $f->plan($plan['answers']);
            $arrange = $step['arrange'] ?? null;
            $key = $arrange === 'unknownKey' ? 'a2e_test_of_no_account_0123456789' : CASES_API_KEY;
            $started = microtime(true);
            [$status, $out, $err] = runCase($arrange === 'noServer' ? 'http://127.0.0.1:9' : $f->baseUrl, $key, $op);
            $took = microtime(true) - $started;
            $where = "step $i " . json_encode($op) . ": $out$err";
            assertSame(0, $status, $where);
            assertSame(1, substr_count($out, "\n"), "one line: $where");
            assertTrue(!str_contains($out . $err, $key), "the API key printed: $where");
            $line = json_decode($out, true, 512, JSON_THROW_ON_ERROR);
            assertSame(null, Cases\mismatch($expect, $line), $where);
            if (!$line['ok']) {
                foreach (ERROR_FIELDS as $field) {
                    assertTrue(array_key_exists($field, $line['error']), "error.$field missing: $where");
                }
            }
            if (isset($step['withinSeconds'])) {
                assertTrue($took <= $step['withinSeconds'], "took longer than {$step['withinSeconds']} s: $where");
            }
            if ($arrange !== 'noServer') {
                assertSame(null, Cases\requestsMismatch($plan, $op, $f->requests(), $key, $op['maxRetries'] ?? 3), $where);
            }
            foreach ($step['save'] ?? [] as $name => $path) {
                $vars[$name] = Cases\at($line, $path);
            }
        }
    });
}
