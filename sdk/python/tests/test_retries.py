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

    def test_max_retries_0_tries_once(self) -> None:
        api = self.serve(failing(503, "service_unavailable"), PAGE)
        with self.assertRaises(a2e.ServiceUnavailableError):
            self.client(api, max_retries=0).listings.list()
        self.assertEqual((len(api.seen), self.sleeps), (1, []))

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

    def test_refusals_are_not_retried(self) -> None:
        for status, code in [(400, "invalid_request"), (401, "api_key_invalid"), (402, "insufficient_credits"),
                             (403, "spending_frozen"), (404, "not_found"), (422, "idempotency_key_reused")]:
            with self.subTest(code=code):
                api = self.serve(failing(status, code), CREATED)
                with self.assertRaises(a2e.A2EError):
                    self.client(api).listings.create(URL)
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
