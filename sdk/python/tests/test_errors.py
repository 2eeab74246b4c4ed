"""Error answers as exceptions, and the API key kept out of every string."""

from __future__ import annotations

import builtins
import logging
from typing import Type, TypeVar

import a2e
from tests.fakeapi import API_KEY, DROP, FakeAPITestCase, Reply

URL = "https://www.amazon.com/dp/B08N5WRWNW"
E = TypeVar("E", bound=a2e.A2EError)


class ErrorTest(FakeAPITestCase):
    def raised(self, reply: Reply, kind: Type[E] = a2e.A2EError) -> E:
        """The error of ``kind`` that create raises for ``reply``, with no retries."""
        with self.assertRaises(kind) as caught:
            self.client(self.serve(reply), max_retries=0).listings.create(URL, idempotency_key="k")
        return caught.exception

    def test_each_code_has_its_class(self) -> None:
        # The codes cases.json answers are checked by test_cases.py; here the others.
        table = [
            (401, "api_key_missing", a2e.AuthenticationError),
            (405, "method_not_allowed", a2e.InvalidRequestError),
            (413, "request_too_large", a2e.InvalidRequestError),
            (415, "unsupported_media_type", a2e.InvalidRequestError),
            (500, "internal_error", a2e.APIError),
            (403, "forbidden", a2e.APIError),
            (409, "conflict", a2e.APIError),
        ]
        for status, code, cls in table:
            with self.subTest(code=code):
                err = self.raised(Reply(status, {"code": code, "message": "Said so", "requestId": "r-9"}))
                self.assertIs(type(err), cls)
                self.assertEqual((err.status, err.code, err.message, err.request_id, err.idempotency_key),
                                 (status, code, "Said so", "r-9", "k"))

    def test_kind_specific_fields(self) -> None:
        # creditsRemaining, the spend limit and outcome_unknown: the cases (test_cases.py).
        limited = self.raised(Reply(429, {"code": "rate_limited", "message": "m"}, {"Retry-After": "12"}),
                              a2e.RateLimitError)
        self.assertEqual(limited.retry_after, 12.0)

        invalid = self.raised(Reply(400, {"code": "invalid_request", "message": "m", "errors": {"amazonUrl": "bad"}}),
                              a2e.InvalidRequestError)
        self.assertEqual(invalid.errors, {"amazonUrl": "bad"})

    def test_an_answer_without_a_code_is_classed_by_its_status(self) -> None:
        err = self.raised(Reply(502, b"<html>Bad gateway</html>", {"X-Request-ID": "r-gw"}))
        self.assertIs(type(err), a2e.APIError)
        self.assertEqual((err.status, err.code, err.message, err.request_id), (502, None, "HTTP 502", "r-gw"))

        limited = self.raised(Reply(429, b"slow down", {"Retry-After": "3"}), a2e.RateLimitError)
        self.assertEqual(limited.retry_after, 3.0)

    def test_str_gives_the_message_status_code_and_request_id(self) -> None:
        err = self.raised(Reply(402, {"code": "insufficient_credits", "message": "Insufficient credits",
                                      "requestId": "r-1"}))
        self.assertEqual(str(err), "Insufficient credits (402, insufficient_credits, request r-1)")
        self.assertEqual(str(a2e.A2EError("plain")), "plain")

    def test_every_error_is_an_a2e_error_and_none_shadows_a_builtin(self) -> None:
        for name in a2e.__all__:
            value = getattr(a2e, name)
            if isinstance(value, type) and name.endswith("Error"):
                with self.subTest(name=name):
                    self.assertTrue(issubclass(value, a2e.A2EError))
                    self.assertFalse(hasattr(builtins, name))


class SecretTest(FakeAPITestCase):
    def test_the_api_key_never_shows(self) -> None:
        api = self.serve(DROP, Reply(503, {"code": "service_unavailable", "message": "m"}),
                         Reply(401, {"code": "api_key_invalid", "message": "Invalid API key"}))
        client = self.client(api, max_retries=2)
        with self.assertLogs("a2e", logging.DEBUG) as logs, self.assertRaises(a2e.AuthenticationError) as caught:
            client.listings.create(URL)

        err = caught.exception
        shown = [repr(client), str(err), repr(err), repr(vars(err)), *logs.output]
        self.assertTrue(all(API_KEY not in text for text in shown), shown)
        self.assertEqual(len(logs.output), 2)  # one line per retry

    def test_a_malformed_key_is_refused_without_echoing_it(self) -> None:
        for key in ["", "two words", "line\nbreak", "caf\u00e9"]:
            with self.subTest(key=key), self.assertRaises(ValueError) as caught:
                a2e.Client(api_key=key, base_url="http://127.0.0.1:1")
            if key:
                self.assertNotIn(key, str(caught.exception))

    def test_options_are_checked(self) -> None:
        for options in [{"base_url": "127.0.0.1:8080"}, {"base_url": "ftp://x"}, {"max_retries": -1},
                        {"timeout": 0}]:
            with self.subTest(options=options), self.assertRaises(ValueError):
                a2e.Client(**{"api_key": API_KEY, "base_url": "http://127.0.0.1:1", **options})
