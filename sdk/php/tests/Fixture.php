<?php

declare(strict_types=1);

namespace A2E\Tests;

/**
 * Runs fixture-server.php as a child process and scripts its answers.
 */
final class Fixture
{
    public readonly string $baseUrl;
    private readonly string $dir;
    /** @var resource */
    private $process;

    public function __construct()
    {
        $this->dir = sys_get_temp_dir() . '/a2e-php-fixture-' . bin2hex(random_bytes(6));
        mkdir($this->dir);
        $port = self::freePort();
        $this->baseUrl = "http://127.0.0.1:$port";
        $env = ['A2E_FIXTURE_DIR' => $this->dir] + getenv();
        $null = ['file', '/dev/null', 'w'];
        $this->process = proc_open([PHP_BINARY, '-S', "127.0.0.1:$port", __DIR__ . '/fixture-server.php'], [['file', '/dev/null', 'r'], $null, $null], $pipes, null, $env)
            ?: throw new \RuntimeException('could not start the fixture server');
        for ($i = 0; $i < 100; $i++) {
            $socket = @fsockopen('127.0.0.1', $port, $errno, $error, 0.1);
            if ($socket !== false) {
                fclose($socket);
                return;
            }
            usleep(50_000);
        }
        throw new \RuntimeException('the fixture server did not start');
    }

    /** The answers of the next requests, in order; forgets the requests recorded so far. */
    public function script(array ...$answers): void
    {
        file_put_contents("$this->dir/script.json", json_encode($answers));
        @unlink("$this->dir/plan.json");
        @unlink("$this->dir/requests.json");
    }

    /**
     * The answers by method ({"GET": [...], "POST": [...]}, each in order, the last one repeated),
     * in place of a script until the next script(); forgets the requests recorded so far.
     */
    public function plan(array $byMethod): void
    {
        file_put_contents("$this->dir/plan.json", json_encode((object) $byMethod));
        @unlink("$this->dir/requests.json");
    }

    /** @return list<array{method: string, uri: string, headers: array<string, string>, body: string}> */
    public function requests(): array
    {
        return json_decode((string) @file_get_contents("$this->dir/requests.json"), true) ?: [];
    }

    public function stop(): void
    {
        proc_terminate($this->process);
        proc_close($this->process);
        array_map('unlink', glob("$this->dir/*"));
        rmdir($this->dir);
    }

    private static function freePort(): int
    {
        $server = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
        fclose($server);
        return $port;
    }
}
