"""The models and error codes checked against the OpenAPI document
(cmd/api/openapi.json, served as GET /v1/openapi.json): every field the
document gives a result is a field of its dataclass, under Python's name,
and nothing else is, but what the SDK adds; a field the document requires on
every answer the model reads has no default; each field has the Python type
the document's type maps to (string str, date-time datetime, integer int,
boolean bool, an array of a schema a tuple of its model, Optional where the
document allows null or an answer leaves the field out); every code the SDK
maps is one the document names."""

from __future__ import annotations

import dataclasses
import json
import os
import typing
import unittest
from datetime import datetime
from typing import Any, Dict, List, Optional, Set, Tuple

import a2e
from a2e import _errors
from a2e._errors import SpendLimit

DOCUMENT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "cmd", "api", "openapi.json")

# Each model, the schemas of the answers it is read from, and the fields the SDK adds.
MODELS = [
    (a2e.Listing, ["Listing", "ListingRecord"], {"rate_limit"}),
    (a2e.ListingPage, ["ListingPage"], {"rate_limit"}),
    (a2e.Account, ["Account"], {"rate_limit"}),
    (a2e.VeroCheck, ["VeroCheck"], {"idempotency_key", "rate_limit"}),
]


# The model each schema is read into (for the items of an array).
MODEL_OF_SCHEMA = {"Listing": a2e.Listing, "ListingRecord": a2e.Listing, "ListingPage": a2e.ListingPage,
                   "Account": a2e.Account, "VeroCheck": a2e.VeroCheck}

# Fields the SDK keeps as the API's text although the document gives a format.
KEPT_AS_TEXT = {(SpendLimit, "resets_at")}


def python_type(prop: Dict[str, Any]) -> Any:
    """The Python type a property of the document is read into, Optional when it may be null."""
    kinds = prop.get("type", "string")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    nullable = "null" in kinds
    kind = next(k for k in kinds if k != "null")
    if kind == "string":
        t: Any = datetime if prop.get("format") == "date-time" else str
    elif kind == "integer":
        t = int
    elif kind == "boolean":
        t = bool
    elif kind == "array":
        t = Tuple[MODEL_OF_SCHEMA[prop["items"]["$ref"].rsplit("/", 1)[1]], ...]
    else:
        raise AssertionError(f"no Python type for {prop}")
    return Optional[t] if nullable else t


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

    def assert_types(self, model: type, properties: Dict[str, Any], everywhere: Set[str]) -> None:
        hints = typing.get_type_hints(model)
        for name, prop in properties.items():
            field = snake(name)
            if field not in hints:
                continue
            want = python_type(prop)
            if (model, field) in KEPT_AS_TEXT:
                want = str
            if name not in everywhere and want is not type(None):
                want = Optional[want]
            self.assertEqual(hints[field], want, f"{model.__name__}.{field}: the document's {prop}")

    def test_models_have_the_documents_types(self) -> None:
        for model, names, _ in MODELS:
            with self.subTest(model=model.__name__):
                schemas = [self.schemas[n] for n in names]
                everywhere: Set[str] = set(schemas[0].get("required", []))
                for s in schemas:
                    everywhere &= set(s.get("required", []))
                    everywhere &= set(s["properties"])
                properties: Dict[str, Any] = {}
                for s in schemas:
                    for name, prop in s["properties"].items():
                        if name in properties and python_type(properties[name]) != python_type(prop):
                            self.fail(f"{name} has two types in {names}")
                        properties.setdefault(name, prop)
                self.assert_types(model, properties, everywhere)
        limit = self.schemas["SpendLimitReached"]["allOf"][1]
        fields = {snake(p) for p in limit["properties"]} - {"code"}
        self.assertEqual({f.name for f in dataclasses.fields(SpendLimit)}, fields)
        self.assert_types(SpendLimit, {k: v for k, v in limit["properties"].items() if k != "code"}, set(limit["required"]))

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
