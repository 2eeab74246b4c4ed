"""verify_webhook: the vectors every SDK shares, the clock, and a receiver over real HTTP."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
import time
import unittest
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import List

import a2e
from a2e._models import parse_timestamp

VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "conformance", "webhook-vectors.json")

KINDS = {
    "signature_mismatch": a2e.WebhookSignatureError,
    "timestamp_outside_tolerance": a2e.WebhookTimestampError,
    "malformed_header": a2e.WebhookHeaderError,
    "malformed_payload": a2e.WebhookPayloadError,
}


def sign(secret: str, t: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


class VectorsTest(unittest.TestCase):
    def test_the_shared_vectors(self) -> None:
        with open(VECTORS, encoding="utf-8") as f:
            vectors = json.load(f)["vectors"]
        self.assertTrue(vectors)
        for v in vectors:
            for payload in (v["payload"], v["payload"].encode("utf-8")):
                with self.subTest(v["name"], payload_type=type(payload).__name__):
                    call = lambda: a2e.verify_webhook(payload, v["header"], v["secret"], v["tolerance"], now=v["now"])  # noqa: E731
                    if "event" in v:
                        event = call()
                        want = v["event"]
                        self.assertEqual(
                            (event.id, event.type, event.created_at, event.data),
                            (want["id"], want["type"], parse_timestamp(want["createdAt"]), want["data"]),
                        )
                        continue
                    with self.assertRaises(KINDS[v["error"]]) as caught:
                        call()
                    self.assertIsInstance(caught.exception, a2e.WebhookVerificationError)
                    self.assertIsInstance(caught.exception, a2e.A2EError)
                    self.assertEqual(caught.exception.code, v["error"])
                    self.assertNotIn(v["secret"], str(caught.exception))


class ClockTest(unittest.TestCase):
    SECRET = "whsec_clock"
    BODY = b'{"id":"e1","type":"balance.low","createdAt":"2026-01-02T03:04:05Z","data":{"creditsAvailable":3}}'

    def test_the_default_tolerance_is_300_seconds(self) -> None:
        now = int(time.time())
        self.assertEqual(a2e.verify_webhook(self.BODY, sign(self.SECRET, now - 10, self.BODY), self.SECRET).type, "balance.low")
        self.assertEqual(a2e.verify_webhook(self.BODY, sign(self.SECRET, now - 290, self.BODY), self.SECRET).id, "e1")
        with self.assertRaises(a2e.WebhookTimestampError):
            a2e.verify_webhook(self.BODY, sign(self.SECRET, now - 400, self.BODY), self.SECRET)
        self.assertEqual(a2e.verify_webhook(self.BODY, sign(self.SECRET, now - 400, self.BODY), self.SECRET, 600).id, "e1")

    def test_arguments(self) -> None:
        header = sign(self.SECRET, int(time.time()), self.BODY)
        with self.assertRaises(a2e.WebhookHeaderError):
            a2e.verify_webhook(self.BODY, None, self.SECRET)
        with self.assertRaises(ValueError):
            a2e.verify_webhook(self.BODY, header, "")
        with self.assertRaises(ValueError):
            a2e.verify_webhook(self.BODY, header, self.SECRET, 0)


class ReceiverTest(unittest.TestCase):
    def test_a_receiver_verifies_the_raw_body_and_refuses_a_changed_one(self) -> None:
        secret = "whsec_receiver"
        events: List[a2e.WebhookEvent] = []

        class Receiver(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                try:
                    events.append(a2e.verify_webhook(body, self.headers.get(a2e.WEBHOOK_SIGNATURE_HEADER), secret))
                    self.send_response(200)
                except a2e.WebhookVerificationError:
                    self.send_response(400)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        body = '{"id":"e2","type":"credits.granted","createdAt":"2026-01-02T03:04:05Z","data":{"credits":100,"note":"für"}}'.encode()
        header = sign(secret, int(time.time()), body)

        def post(b: bytes) -> int:
            req = urllib.request.Request(url, data=b, method="POST", headers={"A2E-Signature": header})
            try:
                with urllib.request.urlopen(req, timeout=10) as res:
                    return res.status
            except urllib.error.HTTPError as e:
                return e.code

        self.assertEqual(post(body), 200)
        self.assertEqual(post(body.replace(b"100", b"900")), 400)
        self.assertEqual([(e.id, e.data) for e in events], [("e2", {"credits": 100, "note": "für"})])


if __name__ == "__main__":
    unittest.main()
