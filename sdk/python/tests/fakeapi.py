"""An in-process HTTP server that answers from a script, for forcing 429, 503, cuts and timeouts."""

from __future__ import annotations

import json
import threading
import time
import unittest
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Union

import a2e


@dataclass(frozen=True)
class Reply:
    """One scripted answer: ``status`` with ``body`` as JSON (or raw bytes), after ``delay`` seconds."""

    status: int
    body: Union[Dict[str, Any], bytes, None] = None
    headers: Dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


# Closes the connection without answering.
DROP = "drop"


@dataclass(frozen=True)
class Seen:
    """A request the server received."""

    method: str
    path: str
    headers: Message  # names are case-insensitive
    body: bytes


class FakeAPI:
    """Serves ``script`` in order, one entry per request, and records what it received.

    Use as a context manager; ``url`` is its base URL. With ``keep_alive`` it
    speaks HTTP/1.1 and keeps connections open; ``connections`` counts the
    connections it accepted.
    """

    def __init__(self, *script: Union[Reply, str], keep_alive: bool = False) -> None:
        self._script: List[Union[Reply, str]] = list(script)
        self._keep_alive = keep_alive
        self.connections = 0
        self.seen: List[Seen] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self._server.server_address[1]

    def __enter__(self) -> FakeAPI:
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, seen: Seen) -> Optional[Union[Reply, str]]:
        with self._lock:
            self.seen.append(seen)
            return self._script.pop(0) if self._script else None

    def _handler(self) -> type:
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if api._keep_alive else "HTTP/1.0"

            def setup(self) -> None:
                super().setup()
                with api._lock:
                    api.connections += 1

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                step = api._next(Seen(self.command, self.path, self.headers, body))
                if step is None:
                    step = Reply(500, {"code": "internal_error", "message": "script exhausted"})
                if step == DROP:
                    self.close_connection = True
                    return
                assert isinstance(step, Reply)
                time.sleep(step.delay)
                payload = step.body if isinstance(step.body, bytes) else json.dumps(step.body).encode()
                try:
                    self.send_response(step.status)
                    for name, value in step.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client gave up (a timeout test)

            do_GET = do_POST = _serve

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


API_KEY = "a2e_test_secret_key_0123456789"

LISTING = {
    "id": "3f0c5a52-5a3c-4f61-9d2e-0b7a3c1b6a11",
    "asin": "B08N5WRWNW",
    "amazonUrl": "https://www.amazon.com/dp/B08N5WRWNW",
    "status": "queued",
    "createdAt": "2025-03-04T05:06:07.12345Z",
}


class FakeAPITestCase(unittest.TestCase):
    """A test case whose clients talk to a FakeAPI and record their waits in ``self.sleeps``."""

    def setUp(self) -> None:
        self.sleeps: List[float] = []

    def serve(self, *script: Union[Reply, str], keep_alive: bool = False) -> FakeAPI:
        api = FakeAPI(*script, keep_alive=keep_alive).__enter__()
        self.addCleanup(api.__exit__)
        return api

    def client(self, api: FakeAPI, **options: Any) -> a2e.Client:
        return a2e.Client(api_key=API_KEY, base_url=api.url, sleep=self.sleeps.append, **options)
