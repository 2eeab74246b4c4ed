"""client.listings and client.account: what is sent, what comes back, and the read-back."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

import a2e
from tests.fakeapi import API_KEY, LISTING, FakeAPITestCase, Reply

URL = "https://www.amazon.com/dp/B08N5WRWNW"
UNKNOWN = Reply(503, {"code": "commit_outcome_unknown", "message": "We could not confirm", "requestId": "r-503"},
                {"Retry-After": "2"})


class CreateTest(FakeAPITestCase):
    def test_sends_the_url_with_the_key_and_a_fresh_idempotency_key(self) -> None:
        api = self.serve(Reply(201, dict(LISTING, creditsRemaining=4), {"X-Request-ID": "r-1"}))
        listing = self.client(api).listings.create(URL)

        (sent,) = api.seen
        self.assertEqual((sent.method, sent.path), ("POST", "/v1/listings"))
        self.assertEqual(json.loads(sent.body), {"amazonUrl": URL})
        self.assertEqual(sent.headers["X-API-Key"], API_KEY)
        self.assertEqual(sent.headers["Content-Type"], "application/json")
        key = sent.headers["Idempotency-Key"]
        self.assertEqual(uuid.UUID(key).version, 4)
        self.assertEqual(listing, a2e.Listing(
            id=LISTING["id"], asin="B08N5WRWNW", amazon_url=URL, status="queued",
            created_at=datetime(2025, 3, 4, 5, 6, 7, 123450, tzinfo=timezone.utc),
            credits_remaining=4, idempotency_key=key, request_id="r-1",
        ))

    def test_each_create_has_its_own_key_unless_one_is_given(self) -> None:
        api = self.serve(*[Reply(201, dict(LISTING, creditsRemaining=1))] * 3)
        client = self.client(api)
        client.listings.create(URL)
        client.listings.create(URL)
        mine = client.listings.create(URL, idempotency_key="order-42")

        keys = [s.headers["Idempotency-Key"] for s in api.seen]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual((keys[2], mine.idempotency_key), ("order-42", "order-42"))

    def test_retries_send_the_same_key_and_the_same_bytes(self) -> None:
        api = self.serve(
            Reply(503, {"code": "service_unavailable", "message": "briefly unavailable"}),
            "drop",
            Reply(500, {"code": "internal_error", "message": "oops"}),
            Reply(201, dict(LISTING, creditsRemaining=0)),
        )
        listing = self.client(api).listings.create(URL)

        self.assertEqual(len(api.seen), 4)
        self.assertEqual(len({(s.headers["Idempotency-Key"], s.body) for s in api.seen}), 1)
        self.assertEqual(listing.idempotency_key, api.seen[0].headers["Idempotency-Key"])

    def test_a_replay_names_the_request_that_was_charged(self) -> None:
        api = self.serve(Reply(201, dict(LISTING, creditsRemaining=3),
                               {"X-Request-ID": "r-2", "Idempotent-Replayed": "true", "Original-Request-Id": "r-1"}))
        self.assertEqual(self.client(api).listings.create(URL, idempotency_key="k").request_id, "r-1")

    def test_an_unknown_outcome_whose_read_back_fails_raises_the_unknown_outcome(self) -> None:
        api = self.serve(UNKNOWN, Reply(500, {"code": "internal_error", "message": "oops"}))
        with self.assertRaises(a2e.ServiceUnavailableError) as caught:
            self.client(api, max_retries=0).listings.create(URL, idempotency_key="k")
        self.assertTrue(caught.exception.outcome_unknown)

    def test_an_unreadable_answer_is_an_api_error(self) -> None:
        api = self.serve(Reply(201, {"id": "only"}, {"X-Request-ID": "r-1"}))
        with self.assertRaises(a2e.APIError) as caught:
            self.client(api).listings.create(URL)
        self.assertEqual((caught.exception.status, caught.exception.request_id), (201, "r-1"))


class ReadTest(FakeAPITestCase):
    def test_retrieve_reads_one_listing_by_its_escaped_id(self) -> None:
        api = self.serve(Reply(200, dict(LISTING, idempotencyKey="k", requestId="r-1")))
        listing = self.client(api).listings.retrieve("a/b c")

        self.assertEqual((api.seen[0].method, api.seen[0].path), ("GET", "/v1/listings/a%2Fb%20c"))
        self.assertEqual((listing.idempotency_key, listing.request_id, listing.credits_remaining), ("k", "r-1", None))
        self.assertNotIn("Idempotency-Key", api.seen[0].headers)

    def test_retrieve_needs_an_id(self) -> None:
        with self.assertRaises(ValueError):
            self.client(self.serve()).listings.retrieve("")

    def test_list_without_arguments_sends_no_query(self) -> None:
        api = self.serve(Reply(200, {"data": [], "nextCursor": None}))
        self.assertEqual(self.client(api).listings.list(), a2e.ListingPage(data=(), next_cursor=None))
        self.assertEqual(api.seen[0].path, "/v1/listings")

    def test_account(self) -> None:
        api = self.serve(Reply(200, {
            "email": "seller@example.com", "creditsAvailable": 12, "subscriptionStatus": "active",
            "spendingFrozen": False, "creditDebt": 0, "monthlyCredits": 10,
            "monthlyCreditsExpireAt": "2025-04-01T00:00:00Z", "purchasedCredits": 2, "otherCredits": 0,
            "addedLater": True,
        }))
        account = self.client(api).account.retrieve()

        self.assertEqual(api.seen[0].path, "/v1/account")
        self.assertEqual(account, a2e.Account(
            email="seller@example.com", credits_available=12, subscription_status="active", spending_frozen=False,
            credit_debt=0, monthly_credits=10,
            monthly_credits_expire_at=datetime(2025, 4, 1, tzinfo=timezone.utc), purchased_credits=2,
            other_credits=0,
        ))


class FixesTest(FakeAPITestCase):
    def test_the_read_back_after_an_unknown_outcome_is_one_request(self) -> None:
        failing_get = Reply(503, {"code": "service_unavailable", "message": "down"})
        api = self.serve(UNKNOWN, UNKNOWN, UNKNOWN, failing_get, failing_get, failing_get)
        with self.assertRaises(a2e.ServiceUnavailableError) as caught:
            self.client(api, max_retries=2).listings.create(URL, idempotency_key="k")
        self.assertTrue(caught.exception.outcome_unknown)
        self.assertEqual([s.method for s in api.seen], ["POST", "POST", "POST", "GET"])
        self.assertEqual(self.sleeps, [2.0, 2.0, 2.0])  # the read-back waits as a first retry

    def test_an_empty_idempotency_key_is_refused_before_sending(self) -> None:
        api = self.serve(Reply(201, LISTING))
        with self.assertRaises(ValueError):
            self.client(api).listings.create(URL, idempotency_key="")
        with self.assertRaises(ValueError):
            self.client(api).vero_checks.create("Nike", idempotency_key="")
        self.assertEqual(api.seen, [])

    def test_an_unreadable_success_carries_the_key(self) -> None:
        api = self.serve(Reply(201, {"id": "only"}))
        with self.assertRaises(a2e.APIError) as caught:
            self.client(api).listings.create(URL, idempotency_key="k-parse")
        self.assertEqual(caught.exception.idempotency_key, "k-parse")
