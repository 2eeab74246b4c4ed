"""The models and error codes checked against the OpenAPI document
(cmd/api/openapi.json, served as GET /v1/openapi.json): every field the
document gives a result is a field of its dataclass, under Python's name,
and nothing else is, but what the SDK adds; a field the document requires on
every answer the model reads has no default; every code the SDK maps is one
the document names."""

from __future__ import annotations

import dataclasses
import json
import os
import unittest
from typing import Any, Dict, List, Set

import a2e
from a2e import _errors

DOCUMENT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "cmd", "api", "openapi.json")

# Each model, the schemas of the answers it is read from, and the fields the SDK adds.
MODELS = [
    (a2e.Listing, ["Listing", "ListingRecord"], {"rate_limit"}),
    (a2e.ListingPage, ["ListingPage"], {"rate_limit"}),
    (a2e.Account, ["Account"], {"rate_limit"}),
    (a2e.VeroCheck, ["VeroCheck"], {"idempotency_key", "rate_limit"}),
]


def snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


class OpenAPIModelsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        if not os.path.exists(DOCUMENT):
            raise unittest.SkipTest("not in the repository: no cmd/api/openapi.json")
        with open(DOCUMENT) as f:
            cls.schemas: Dict[str, Any] = json.load(f)["components"]["schemas"]

    def test_models_have_the_documents_fields(self) -> None:
        for model, names, added in MODELS:
            with self.subTest(model=model.__name__):
                schemas = [self.schemas[n] for n in names]
                documented: Set[str] = set()
                required_everywhere: Set[str] = set(schemas[0].get("required", []))
                for s in schemas:
                    documented |= {snake(p) for p in s["properties"]}
                    required_everywhere &= set(s.get("required", []))
                fields = {f.name: f for f in dataclasses.fields(model)}
                self.assertEqual(set(fields) - added, documented)
                for name in required_everywhere:
                    f = fields[snake(name)]
                    self.assertIs(f.default, dataclasses.MISSING, f"{model.__name__}.{f.name} is required")

    def test_the_error_body_is_read(self) -> None:
        error: List[str] = list(self.schemas["Error"]["properties"])
        self.assertEqual(set(error), {"code", "message", "requestId", "errors"})
        e = _errors.error_of_answer(
            400, {"code": "invalid_request", "message": "m", "errors": {"brand": "b"}}, request_id="r",
            retry_after=None, idempotency_key=None,
        )
        self.assertIsInstance(e, a2e.InvalidRequestError)
        self.assertEqual((e.code, e.message, e.request_id, e.errors), ("invalid_request", "m", "r", {"brand": "b"}))
        credits = self.schemas["InsufficientCredits"]["allOf"][1]["properties"]
        self.assertIn("creditsRemaining", credits)
        self.assertTrue(hasattr(a2e.InsufficientCreditsError("m"), snake("creditsRemaining")))

    def test_every_code_the_sdk_maps_is_documented(self) -> None:
        documented = set(self.schemas["ErrorCode"]["enum"])
        self.assertLessEqual(set(_errors._CLASS_OF_CODE), documented)
        self.assertIn(_errors.COMMIT_OUTCOME_UNKNOWN, documented)


if __name__ == "__main__":
    unittest.main()
