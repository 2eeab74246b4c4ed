"""Conformance runner: performs one operation through the SDK and prints one JSON line.

Protocol: sdk/conformance/README.md. The operation is read from standard input,
the server from A2E_BASE_URL and A2E_API_KEY. Exits 0 whenever it printed a line.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Optional, Type

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import a2e  # noqa: E402  (after the path is set)


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.capitalize() for word in rest)


def rfc3339(t: datetime) -> str:
    """A timestamp as the API writes it (Go's RFC 3339 with trimmed fraction)."""
    text = t.astimezone(timezone.utc).replace(tzinfo=None).isoformat()
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + "Z"


def api_json(value: Any) -> Any:
    """An SDK result written back with the API's field names and formats."""
    if dataclasses.is_dataclass(value):
        # The API leaves a live object's mode out (omitempty): so does this.
        return {
            camel(f.name): api_json(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name != "rate_limit" and not (f.name == "mode" and getattr(value, f.name) is None)
        }
    if isinstance(value, dict):
        return {name: api_json(item) for name, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [api_json(item) for item in value]
    if isinstance(value, datetime):
        return rfc3339(value)
    return value


# The protocol's class names; the others are the SDK's own.
CLASS_NAMES: Dict[Type[a2e.A2EError], str] = {a2e.APIConnectionError: "ConnectionError"}


def error_json(error: a2e.A2EError) -> Dict[str, Any]:
    return {
        "class": CLASS_NAMES.get(type(error), type(error).__name__),
        "code": error.code,
        "status": error.status,
        "requestId": error.request_id,
        "message": error.message,
        "idempotencyKey": error.idempotency_key,
        "retryAfter": error.retry_after,
        "outcomeUnknown": isinstance(error, a2e.ServiceUnavailableError) and error.outcome_unknown,
        "creditsRemaining": getattr(error, "credits_remaining", None),
        "spendLimit": spend_limit_json(getattr(error, "spend_limit", None)),
    }


def spend_limit_json(limit: Optional[a2e.SpendLimit]) -> Optional[Dict[str, Any]]:
    if limit is None:
        return None
    return {"period": limit.period, "limit": limit.limit, "spent": limit.spent, "resetsAt": limit.resets_at}


OPERATIONS: Dict[str, Callable[[a2e.Client, Dict[str, Any]], Any]] = {
    "create": lambda c, op: c.listings.create(op["amazonUrl"], idempotency_key=op.get("idempotencyKey")),
    "veroCheck": lambda c, op: c.vero_checks.create(op["brand"], idempotency_key=op.get("idempotencyKey")),
    "retrieve": lambda c, op: c.listings.retrieve(op["id"]),
    "list": lambda c, op: c.listings.list(
        limit=op.get("limit"), cursor=op.get("cursor"), idempotency_key=op.get("idempotencyKey")
    ),
    "listAll": lambda c, op: {"data": list(c.listings.list_all(limit=op.get("limit")))},
    "findByIdempotencyKey": lambda c, op: c.listings.find_by_idempotency_key(op["idempotencyKey"]),
    "account": lambda c, op: c.account.retrieve(),
}


def run(op: Dict[str, Any]) -> Dict[str, Any]:
    options: Dict[str, Any] = {"api_key": os.environ["A2E_API_KEY"], "base_url": os.environ["A2E_BASE_URL"]}
    if op.get("maxRetries") is not None:
        options["max_retries"] = op["maxRetries"]
    client = a2e.Client(**options)
    try:
        result = OPERATIONS[op["op"]](client, op)
    except a2e.A2EError as error:
        return {"ok": False, "error": error_json(error)}
    line: Dict[str, Any] = {"ok": True, "result": api_json(result)}
    if op["op"] in ("create", "veroCheck"):
        line["idempotencyKey"] = result.idempotency_key
    rate_limit = getattr(result, "rate_limit", None)
    if rate_limit is not None:
        line["rateLimit"] = {
            "limit": rate_limit.limit,
            "remaining": rate_limit.remaining,
            "reset": int(rate_limit.reset.timestamp()),
        }
    return line


def main() -> int:
    try:
        op = json.load(sys.stdin)
        if op.get("op") not in OPERATIONS:
            raise ValueError(f"unknown op {op.get('op')!r}")
        line = run(op)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        print(f"runner: cannot run: {exc!r}", file=sys.stderr)
        return 2
    print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
