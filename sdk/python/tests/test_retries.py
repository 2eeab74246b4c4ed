"""What is retried, how long the SDK waits, and when it gives up."""

from __future__ import annotations

import socket

import a2e
from a2e._transport import Request, Transport
from tests.fakeapi import API_KEY, DROP, LISTING, FakeAPITestCase, Reply

URL = "https://www.amazon.com/dp/B08N5WRWNW"
CREATED = Reply(201, dict(LISTING, creditsRemaining=1))
PAGE = Reply(200, {"data": [], "nextCursor": None})


def failing(status: int, code: str, **headers: str) -> Reply:
    return Reply(status, {"code": code, "message": code.replace("_", " ")}, headers)


class RetryTest(FakeAPITestCase):
    def test_429_waits_retry_after_then_succeeds(self) -> None:
        api = self.serve(failing(429, "rate_limited", **{"Retry-After": "7"}), CREATED)
        self.client(api).listings.create(URL)
        self.assertEqual(self.sleeps, [7.0])
        self.assertEqual(len(api.seen), 2)

    def test_retry_after_is_capped_at_20_seconds(self) -> None:
        api = self.serve(failing(503, "service_unavailable", **{"Retry-After": "3600"}), PAGE)
        self.client(api).listings.list()
        self.assertEqual(self.sleeps, [20.0])

    def test_without_retry_after_the_backoff_is_jittered_and_grows(self) -> None:
        api = self.serve(*[failing(503, "service_unavailable")] * 6)
        with self.assertRaises(a2e.ServiceUnavailableError):
            self.client(api, max_retries=5).account.retrieve()

        self.assertEqual(len(api.seen), 6)
        bounds = [0.5, 1.0, 2.0, 4.0, 8.0]
        self.assertEqual(len(self.sleeps), len(bounds))
        for waited, bound in zip(self.sleeps, bounds):
            self.assertTrue(0 <= waited <= bound, (waited, bound))

    def test_the_backoff_bound_stops_at_8_seconds(self) -> None:
        api = self.serve(*[DROP] * 9)
        with self.assertRaises(a2e.APIConnectionError):
            self.client(api, max_retries=8).account.retrieve()
        self.assertTrue(all(0 <= waited <= 8.0 for waited in self.sleeps))

    def test_the_last_failure_is_raised_after_max_retries(self) -> None:
        api = self.serve(*[failing(429, "rate_limited", **{"Retry-After": "1"})] * 4)
        with self.assertRaises(a2e.RateLimitError) as caught:
            self.client(api).listings.create(URL, idempotency_key="k")

        self.assertEqual(len(api.seen), 4)  # 1 + the default 3 retries
        self.assertEqual((caught.exception.retry_after, caught.exception.idempotency_key), (1.0, "k"))

    def test_500_502_504_are_retried_for_reads_and_keyed_creates(self) -> None:
        for status in (500, 502, 504):
            with self.subTest(status=status):
                api = self.serve(failing(status, "internal_error"), PAGE, failing(status, "internal_error"), CREATED)
                client = self.client(api)
                client.listings.list()
                client.listings.create(URL)
                self.assertEqual(len(api.seen), 4)

    def test_500_is_not_retried_for_an_unkeyed_write(self) -> None:
        api = self.serve(failing(500, "internal_error"), CREATED)
        transport = Transport(api_key=API_KEY, base_url=api.url, max_retries=3, timeout=5, sleep=self.sleeps.append)
        with self.assertRaises(a2e.APIError):
            transport.request(Request("POST", "/v1/listings", body=b"{}"))
        self.assertEqual(len(api.seen), 1)

    def test_a_dropped_connection_is_retried(self) -> None:
        api = self.serve(DROP, DROP, CREATED)
        listing = self.client(api).listings.create(URL)
        self.assertEqual(len(api.seen), 3)
        self.assertEqual(listing.idempotency_key, api.seen[0].headers["Idempotency-Key"])

    def test_no_answer_at_all_is_a_connection_error_with_the_key(self) -> None:
        api = self.serve(*[DROP] * 4)
        with self.assertRaises(a2e.APIConnectionError) as caught:
            self.client(api).listings.create(URL, idempotency_key="k")

        err = caught.exception
        self.assertEqual(len(api.seen), 4)
        self.assertEqual((err.idempotency_key, err.status, err.code, err.request_id), ("k", None, None, None))
        self.assertNotIsInstance(err, ConnectionError)  # the builtin is not shadowed nor inherited

    def test_each_attempt_times_out(self) -> None:
        api = self.serve(Reply(200, {"data": [], "nextCursor": None}, delay=2), PAGE)
        self.assertEqual(self.client(api, timeout=0.2).listings.list().data, ())
        self.assertEqual(len(api.seen), 2)
        self.assertEqual(len(self.sleeps), 1)

    def test_a_refused_connection_is_a_connection_error(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]  # nothing listens once it is closed
        client = a2e.Client(api_key=API_KEY, base_url=f"http://127.0.0.1:{port}", sleep=self.sleeps.append)
        with self.assertRaises(a2e.APIConnectionError) as caught:
            client.account.retrieve()
        self.assertIn("/v1/account", caught.exception.message)
        self.assertEqual(len(self.sleeps), 3)

    def test_a_redirect_is_not_followed(self) -> None:
        api = self.serve(Reply(302, b"", {"Location": "http://elsewhere.invalid/steal"}))
        with self.assertRaises(a2e.APIError) as caught:
            self.client(api).account.retrieve()
        self.assertEqual(caught.exception.status, 302)
        self.assertEqual(len(api.seen), 1)


class RetryAfterAndStatusTest(FakeAPITestCase):
    def test_retry_after_as_an_http_date(self) -> None:
        from datetime import datetime, timezone
        from email.message import Message

        from a2e._transport import _retry_after

        now = datetime(2026, 11, 25, 16, 0, 0, tzinfo=timezone.utc)
        h = Message()
        h["Retry-After"] = "Wed, 25 Nov 2026 16:00:07 GMT"
        self.assertEqual(_retry_after(h, now), 7.0)
        past = Message()
        past["Retry-After"] = "Wed, 25 Nov 2026 15:00:00 GMT"
        self.assertIsNone(_retry_after(past, now))

    def test_a_late_http_date_is_waited_capped_at_20_seconds(self) -> None:
        from email.utils import format_datetime
        from datetime import datetime, timedelta, timezone

        later = format_datetime(datetime.now(timezone.utc) + timedelta(hours=1), usegmt=True)
        api = self.serve(failing(503, "service_unavailable", **{"Retry-After": later}), PAGE)
        self.client(api).listings.list()
        self.assertEqual(self.sleeps, [20.0])

    def test_retry_after_0_or_negative_is_as_absent(self) -> None:
        api = self.serve(failing(429, "rate_limited", **{"Retry-After": "0"}),
                         failing(503, "service_unavailable", **{"Retry-After": "-5"}), PAGE)
        import random
        from unittest import mock

        with mock.patch.object(random, "uniform", side_effect=lambda lo, hi: hi) as uniform:
            self.client(api).listings.list()
        self.assertEqual(self.sleeps, [0.5, 1.0])  # the backoff's bounds
        self.assertEqual(uniform.call_count, 2)

    def test_only_2xx_is_a_success(self) -> None:
        class Redirected(Transport):
            def _send(self, request):  # type: ignore[no-untyped-def]
                from email.message import Message
                self.sent = getattr(self, "sent", 0) + 1
                return 302, Message(), b""

        t = Redirected(api_key=API_KEY, base_url="http://127.0.0.1:1", max_retries=3, timeout=1,
                       sleep=self.sleeps.append)
        with self.assertRaises(a2e.APIError) as caught:
            t.request(Request("GET", "/v1/account"))
        self.assertIs(type(caught.exception), a2e.APIError)
        self.assertEqual((caught.exception.status, t.sent), (302, 1))

    def test_a_422_that_is_not_a_reused_key_is_invalid_request(self) -> None:
        api = self.serve(failing(422, "unprocessable"))
        with self.assertRaises(a2e.InvalidRequestError):
            self.client(api).listings.create(URL, idempotency_key="k")

    def test_an_attempt_is_bounded_as_a_whole(self) -> None:
        import threading
        import time as _time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class Trickle(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                try:
                    for _ in range(100):  # one byte every 0.1 s: no socket operation waits 0.3 s
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        _time.sleep(0.1)
                except OSError:
                    pass

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Trickle)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        client = a2e.Client(api_key=API_KEY, base_url="http://127.0.0.1:%d" % server.server_address[1],
                            max_retries=0, timeout=0.3, sleep=self.sleeps.append)
        began = _time.monotonic()
        with self.assertRaises(a2e.APIConnectionError):
            client.account.retrieve()
        self.assertLess(_time.monotonic() - began, 2.0)
