"""VeRO checks, auto-pagination, rate limits on results, the User-Agent, the
Retry-After rule every SDK shares, and connection reuse."""

from __future__ import annotations

import json
import os
import socket
import threading
from email.message import Message

import a2e
from a2e._transport import _retry_after
from tests.fakeapi import LISTING, FakeAPITestCase, Reply

LIMITS = {"X-RateLimit-Limit": "20", "X-RateLimit-Reset": "1768471505"}
VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "conformance", "retry-after.json")


def limited(body: object, remaining: int) -> Reply:
    return Reply(200, body, dict(LIMITS, **{"X-RateLimit-Remaining": str(remaining)}))  # type: ignore[arg-type]


def page(ids: list, next_cursor: object) -> Reply:
    return Reply(200, {"data": [dict(LISTING, id=i) for i in ids], "nextCursor": next_cursor})


class UserAgentTest(FakeAPITestCase):
    def test_names_the_sdk_and_its_version(self) -> None:
        api = self.serve(Reply(200, {"data": [], "nextCursor": None}))
        self.client(api).listings.list()
        self.assertEqual(api.seen[0].headers["User-Agent"], f"a2e-sdk-python/{a2e.__version__}")


class RetryAfterTest(FakeAPITestCase):
    def test_the_shared_vectors(self) -> None:
        with open(VECTORS) as f:
            vectors = json.load(f)["vectors"]
        self.assertTrue(vectors)
        for v in vectors:
            headers = Message()
            headers["Retry-After"] = v["header"]
            with self.subTest(header=v["header"]):
                self.assertEqual(_retry_after(headers), v["seconds"])

    def test_a_fractional_retry_after_is_waited(self) -> None:
        api = self.serve(Reply(429, {"code": "rate_limited"}, {"Retry-After": "1.5"}), Reply(200, {"data": [], "nextCursor": None}))
        self.client(api).listings.list()
        self.assertEqual(self.sleeps, [1.5])


class RateLimitTest(FakeAPITestCase):
    def test_every_result_has_the_headers(self) -> None:
        account = {
            "email": "a@example.com", "creditsAvailable": 1, "subscriptionStatus": "inactive", "spendingFrozen": False,
            "creditDebt": 0, "monthlyCredits": 0, "monthlyCreditsExpireAt": None, "purchasedCredits": 0, "otherCredits": 1,
        }
        one = {"data": [LISTING], "nextCursor": None}
        api = self.serve(limited(account, 19), limited(LISTING, 18), limited(one, 17), limited(one, 16), Reply(200, account))
        client = self.client(api)
        self.assertEqual(client.account.retrieve().rate_limit.remaining, 19)
        self.assertEqual(client.listings.retrieve("L1").rate_limit.remaining, 18)
        self.assertEqual(client.listings.list().rate_limit.remaining, 17)
        found = client.listings.find_by_idempotency_key("k")
        self.assertEqual(found.rate_limit.remaining, 16)
        self.assertEqual(found.rate_limit.limit, 20)
        self.assertIsNone(client.account.retrieve().rate_limit)


class ListAllTest(FakeAPITestCase):
    def test_follows_the_cursor_and_retries_a_page(self) -> None:
        api = self.serve(
            page(["L5", "L4"], "c2"),
            page(["L3", "L2"], "c3"),
            Reply(503, {"code": "service_unavailable"}, {"Retry-After": "1"}),
            page(["L1"], None),
        )
        ids = [listing.id for listing in self.client(api).listings.list_all(limit=2)]
        self.assertEqual(ids, ["L5", "L4", "L3", "L2", "L1"])
        self.assertEqual(
            [s.path for s in api.seen],
            ["/v1/listings?limit=2", "/v1/listings?limit=2&cursor=c2", "/v1/listings?limit=2&cursor=c3",
             "/v1/listings?limit=2&cursor=c3"],
        )

    def test_raises_the_error_that_stops_it(self) -> None:
        api = self.serve(page(["L2"], "c2"), Reply(401, {"code": "api_key_invalid"}))
        seen = []
        with self.assertRaises(a2e.AuthenticationError):
            for listing in self.client(api).listings.list_all():
                seen.append(listing.id)
        self.assertEqual(seen, ["L2"])


class ConnectionReuseTest(FakeAPITestCase):
    def test_calls_share_one_connection(self) -> None:
        empty = Reply(200, {"data": [], "nextCursor": None})
        api = self.serve(*[empty] * 5, keep_alive=True)
        client = self.client(api)
        for _ in range(5):
            client.listings.list()
        self.assertEqual(len(api.seen), 5)
        self.assertEqual(api.connections, 1)

    def test_an_error_answer_keeps_the_connection_too(self) -> None:
        api = self.serve(Reply(404, {"code": "not_found"}), Reply(200, LISTING), keep_alive=True)
        client = self.client(api)
        with self.assertRaises(a2e.NotFoundError):
            client.listings.retrieve("nope")
        client.listings.retrieve("L1")
        self.assertEqual(api.connections, 1)

    def test_a_connection_the_server_closed_is_replaced_at_once(self) -> None:
        # A server that answers one request per connection and then closes it
        # without saying so (no Connection: close): the kept connection is stale.
        answered = []
        body = b'{"data": [], "nextCursor": null}'
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        self.addCleanup(server.close)

        def serve() -> None:
            for _ in range(2):
                conn, _ = server.accept()
                with conn:
                    conn.recv(65536)
                    answered.append(True)
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))

        threading.Thread(target=serve, daemon=True).start()
        client = a2e.Client(api_key="k_test", base_url="http://127.0.0.1:%d" % server.getsockname()[1], sleep=self.sleeps.append)
        client.listings.list()
        client.listings.list()
        self.assertEqual(len(answered), 2)
        self.assertEqual(self.sleeps, [])  # not a retry: no wait, no attempt spent
        client.close()
